// A snapshot damaged under running workers, under pm2 with the production bundles: the live file cut short (what
// `cp` over current.sqlite does first) and bytes changed in place. The workers leave at once (or die of SIGBUS on
// a page past the new end), pm2 starts them again, they check the file and serve the older good snapshot beside
// it, with a degraded /healthz, and do not crash-loop. Needs `node scripts/bundle.mjs` (npm test runs it).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import { pm2Processes, startLoad, summarise } from '../support/faults.ts';
import { startPm2Stack, type Pm2Stack } from '../support/pm2-stack.ts';

const PAGE = 4096;
/** Long enough for pm2 to have restarted a crash-looping worker many times over. */
const STABLE_FOR_MS = 6_000;

interface Health {
  status: string;
  snapshot: { fallback?: { serving: string; reason: string } };
}

describe('a snapshot damaged under running workers', () => {
  let stack: Pm2Stack;
  let snapshots: string;
  let older: string;
  let key: string;

  before(async () => {
    stack = await startPm2Stack({ workers: 2 });
    snapshots = path.join(stack.dataDir, 'snapshots');
    // The previous good snapshot beside the live one, as publish:snapshot keeps it.
    older = path.join(snapshots, 'snapshot-older.sqlite');
    fs.copyFileSync(path.join(snapshots, 'snapshot-initial.sqlite'), older);
    fs.copyFileSync(path.join(snapshots, 'snapshot-initial.sqlite.sha256'), `${older}.sha256`);
    const hourAgo = new Date(Date.now() - 3_600_000);
    fs.utimesSync(older, hourAgo, hourAgo);
    key = await stack.newKey(`damage-${process.pid}@example.org`, 'institution');
  });
  after(async () => {
    await stack?.stop();
  });

  const health = async (): Promise<{ status: number; body?: Health; text: string }> => {
    try {
      const res = await fetch(`${stack.baseUrl}/healthz`);
      const text = await res.text();
      return { status: res.status, body: JSON.parse(text) as Health, text };
    } catch (error) {
      return { status: 0, text: String(error) };
    }
  };

  /** Every worker answers from the older snapshot (several probes: the port spreads them over the workers). */
  async function untilBothOnOlder(): Promise<string> {
    const deadline = Date.now() + 40_000;
    let last = '';
    while (Date.now() < deadline) {
      const probes = await Promise.all(Array.from({ length: 8 }, () => health()));
      last = probes.map((p) => p.text).join('\n');
      if (probes.every((p) => p.status === 200 && p.body?.status === 'degraded' && p.body.snapshot.fallback?.serving === older)) return last;
      await sleep(250);
    }
    throw new Error(`the workers did not come back on ${older}:\n${last}`);
  }

  async function damageUnderLoad(t: { diagnostic(message: string): void }, damage: (file: string) => void, reason: RegExp): Promise<void> {
    const load = startLoad({ baseUrl: stack.baseUrl, apiKey: key, paths: ['/api/v1/words?q=omo', '/api/v1/words?q=water&language=yo', '/api/v1/stats'], concurrency: 4 });
    await sleep(500);
    damage(fs.realpathSync(path.join(snapshots, 'current.sqlite')));
    const text = await untilBothOnOlder();
    assert.match(text, reason, text);
    const recoveredAt = Date.now();
    const restarts = (await pm2Processes(stack)).filter((p) => p.name === 'api').map((p) => p.restarts);
    await sleep(STABLE_FOR_MS);
    const apps = (await pm2Processes(stack)).filter((p) => p.name === 'api');
    assert.deepEqual(apps.map((p) => p.restarts), restarts, `no crash loop: ${JSON.stringify(apps)}`);
    assert.ok(apps.every((p) => p.status === 'online'), JSON.stringify(apps));
    const samples = await load.stop();
    const late = samples.filter((s) => s.start > recoveredAt && s.status !== 200);
    assert.deepEqual(late, [], `requests after the recovery: ${summarise(late)}`);
    // The workers' error lines, from pm2's log files (their request lines fill the output log).
    const logDir = path.join(stack.env.PM2_HOME ?? '', 'logs');
    const logs = fs
      .readdirSync(logDir)
      .filter((name) => name.startsWith('api-error'))
      .map((name) => fs.readFileSync(path.join(logDir, name), 'utf8'))
      .join('');
    assert.match(logs, /SERVING AN OLDER SNAPSHOT/, logs.slice(-4000));
    const left = (logs.match(/SNAPSHOT FILE CHANGED UNDER THE WORKER/g) ?? []).length;
    t.diagnostic(`${samples.length} requests; pm2 restarts of the workers so far ${JSON.stringify(restarts)}; change notices in their logs so far: ${left}`);
  }

  it('a snapshot damaged under running workers - cut short, as cp over it begins: back on the older good snapshot', async (t) => {
    await damageUnderLoad(t, (file) => fs.truncateSync(file, Math.floor(fs.statSync(file).size / 2)), /truncated: \d+ bytes of the \d+ its header promises/);
  });

  it('a snapshot damaged under running workers - bytes changed in place: back on the older good snapshot', async (t) => {
    // A good current snapshot again, published the way publish:snapshot does it: a new file, the link swapped, reload.
    const restored = path.join(snapshots, 'snapshot-restored.sqlite');
    fs.copyFileSync(older, restored);
    fs.copyFileSync(`${older}.sha256`, `${restored}.sha256`);
    fs.symlinkSync('snapshot-restored.sqlite', path.join(snapshots, 'current.tmp'));
    fs.renameSync(path.join(snapshots, 'current.tmp'), path.join(snapshots, 'current.sqlite'));
    await stack.pm2('reload', 'api');
    const ok = await health();
    assert.equal(ok.body?.status, 'ok', ok.text);

    await damageUnderLoad(
      t,
      (file) => {
        const fd = fs.openSync(file, 'r+');
        for (let page = 7; page < 400; page += 7) fs.writeSync(fd, randomBytes(PAGE), 0, PAGE, page * PAGE);
        fs.closeSync(fd);
      },
      /SHA-256 .* differs from the build's/,
    );
  });
});
