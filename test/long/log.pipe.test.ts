// The worker's logger on real pipes whose reader stops, as pm2's daemon does when paused: what waits in the
// process stays bounded, and once the reader resumes a line says how many request lines were dropped. A long
// run (npm run test:long): on a busy machine the writer can stop answering its parent while the pipes are
// full, and without the 2-minute bound below the run would wait without end instead of failing.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import { OTHER_LINES_RESERVE, REQUEST_QUEUE_LIMIT } from '../../services/shared/log/bounded-output.ts';

interface Report {
  requests: number;
  errors: number;
  dropped: { request: number; other: number };
  stdoutQueued: number;
  stderrQueued: number;
  rss: number;
}

const WRITER = path.resolve(import.meta.dirname, '../support/log-writer.ts');

describe('api logger on a pipe', () => {
  it('api logger on a pipe - a reader that stops leaves the writer bounded; lines dropped are reported once it reads again', { timeout: 120_000 }, async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', WRITER], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    const { stdout, stderr } = child as { stdout: NodeJS.ReadableStream; stderr: NodeJS.ReadableStream };
    try {
      // Nobody reads the pipes for a while: the kernel's buffer fills, then everything waits in the writer.
      stdout.pause();
      stderr.pause();
      const ask = async (): Promise<Report> => {
        child.send('report');
        const [report] = (await once(child, 'message')) as [Report];
        return report;
      };
      const reports: Report[] = [];
      for (let i = 0; i < 15; i++) {
        await sleep(200);
        reports.push(await ask());
      }
      const last = reports.at(-1) as Report;
      const shown = JSON.stringify(reports.map((r) => ({ ...r, rss: Math.round(r.rss / 2 ** 20) })));
      assert.ok(last.requests > 200_000, `the writer kept logging: ${shown}`);
      for (const r of reports) {
        assert.ok(r.stdoutQueued <= REQUEST_QUEUE_LIMIT + OTHER_LINES_RESERVE, `stdout queue over the bound: ${shown}`);
        assert.ok(r.stderrQueued <= REQUEST_QUEUE_LIMIT + OTHER_LINES_RESERVE, `stderr queue over the bound: ${shown}`);
      }
      assert.ok(last.dropped.request > last.requests / 2, `request lines dropped and counted: ${shown}`);
      assert.equal(last.dropped.other, 0, `every error line kept: ${shown}`);

      child.send('stop');
      const stopped = await ask();
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      stdout.on('data', (c: Buffer) => out.push(c));
      stderr.on('data', (c: Buffer) => err.push(c));
      stdout.resume();
      stderr.resume();
      const warning = (): Record<string, unknown> | undefined =>
        Buffer.concat(out)
          .toString('utf8')
          .split('\n')
          .filter((l) => l.includes('"level":"warn"'))
          .map((l) => JSON.parse(l) as Record<string, unknown>)[0];
      for (let i = 0; i < 100 && !warning(); i++) await sleep(50);
      const written = Buffer.concat(out).toString('utf8').split('\n').filter((l) => l.includes('"msg":"request"')).length;
      assert.deepEqual(
        { msg: warning()?.msg, stream: warning()?.stream, requestLines: warning()?.requestLines, otherLines: warning()?.otherLines },
        { msg: 'log lines dropped: the log reader did not keep up', stream: 'stdout', requestLines: stopped.dropped.request, otherLines: 0 },
      );
      assert.equal(written + stopped.dropped.request, stopped.requests, 'every request line was written or counted as dropped');
      const errorLines = Buffer.concat(err).toString('utf8').trimEnd().split('\n').filter(Boolean);
      assert.equal(errorLines.length, stopped.errors, Buffer.concat(err).toString('utf8'));
    } finally {
      child.kill('SIGKILL');
    }
  });
});
