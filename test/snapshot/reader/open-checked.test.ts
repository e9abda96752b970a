// A damaged snapshot where a worker starts: bytes changed in place, or the file cut short (what a `cp` over it
// leaves behind). The worker checks the file (its length, the build's SHA-256), serves the newest good snapshot
// in the folder instead with a loud log line and a degraded /healthz, and exits with a clear message when no
// snapshot passes. Real API worker processes over nats-server, metering and copies of the test snapshot.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';

import { testSnapshotPath } from '../../support/snapshot.ts';
import { ROOT, startStack } from '../../support/stack.ts';

import type { Stack } from '../../support/stack.ts';

const PAGE = 4096;
const folders: string[] = [];
const stacks: Stack[] = [];
after(async () => {
  await Promise.all(stacks.map((s) => s.stop()));
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

/** A snapshot folder as publish:snapshot leaves it: an older good snapshot and the current one, each with its .sha256. */
function folder(): { dir: string; older: string; current: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dict-snapshots-'));
  folders.push(dir);
  const source = testSnapshotPath();
  const older = path.join(dir, 'snapshot-20250101T000000.sqlite');
  const current = path.join(dir, 'snapshot-20250102T000000.sqlite');
  for (const file of [older, current]) {
    fs.copyFileSync(source, file);
    const digest = fs.readFileSync(`${source}.sha256`, 'utf8').split(' ')[0];
    fs.writeFileSync(`${file}.sha256`, `${digest}  ${path.basename(file)}\n`);
  }
  const hourAgo = new Date(Date.now() - 3_600_000);
  fs.utimesSync(older, hourAgo, hourAgo);
  fs.symlinkSync(path.basename(current), path.join(dir, 'current.sqlite'));
  return { dir, older, current };
}

/** Random bytes over every fifth page past the first: many b-tree pages, as a failing disk or a stray write leaves. */
function corruptInPlace(file: string): void {
  const fd = fs.openSync(file, 'r+');
  try {
    const pages = Math.floor(fs.fstatSync(fd).size / PAGE);
    for (let page = 5; page < pages; page += 5) fs.writeSync(fd, randomBytes(PAGE), 0, PAGE, page * PAGE);
  } finally {
    fs.closeSync(fd);
  }
}

/** 83 searches over two-letter prefixes, as a client's mix: every one must be answered 200. */
async function searches(stack: Stack, apiKey: string): Promise<string[]> {
  const failures: string[] = [];
  const letters = 'bcdfghjklmnprstwy'.split('').flatMap((c) => 'aeiou'.split('').map((v) => `${c}${v}`)).slice(0, 83);
  for (const q of letters) {
    const res = await fetch(`${stack.baseUrl}/api/v1/words?q=${q}`, { headers: { 'x-api-key': apiKey } });
    const text = await res.text();
    if (res.status !== 200) failures.push(`${q}: ${res.status} ${text.slice(0, 200)}`);
  }
  return failures;
}

interface Health {
  status: string;
  snapshot: { version: string; fallback?: { wanted: string; reason: string; serving: string } };
}

async function checkFallback(damage: (file: string) => void, reason: RegExp): Promise<void> {
  const { dir, older, current } = folder();
  damage(current);
  const stack = await startStack({ workers: 1, env: { SNAPSHOT_PATH: path.join(dir, 'current.sqlite') } });
  stacks.push(stack);
  const { apiKey } = await stack.register();
  assert.deepEqual(await searches(stack, apiKey), []);
  const res = await fetch(`${stack.baseUrl}/healthz`);
  const text = await res.text();
  const health = JSON.parse(text) as Health;
  assert.equal(res.status, 200, text);
  assert.equal(health.status, 'degraded', text);
  assert.equal(health.snapshot.fallback?.serving, older, text);
  assert.equal(health.snapshot.fallback?.wanted, path.join(dir, 'current.sqlite'), text);
  assert.match(health.snapshot.fallback?.reason ?? '', reason, text);
  assert.match(stack.logs(), /SNAPSHOT FAILED ITS CHECK/, stack.logs());
  assert.match(stack.logs(), /SERVING AN OLDER SNAPSHOT/, stack.logs());
}

describe('a damaged snapshot at start', () => {
  it('a damaged snapshot at start - bytes changed in place: the worker serves the older good one, says degraded', async () => {
    await checkFallback(corruptInPlace, /SHA-256 .* differs from the build's/);
  });

  it('a damaged snapshot at start - cut short: the worker serves the older good one, says degraded', async () => {
    await checkFallback((file) => fs.truncateSync(file, Math.floor(fs.statSync(file).size / 2)), /^truncated: \d+ bytes of the \d+ its header promises$/);
  });

  it('a damaged snapshot at start - none good: the worker exits at once, naming each file and why', async () => {
    const { dir, older, current } = folder();
    fs.truncateSync(current, 10 * PAGE);
    corruptInPlace(older);
    const child = spawn(process.execPath, ['--import', 'tsx', 'services/api/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, SNAPSHOT_PATH: path.join(dir, 'current.sqlite'), DATA_DIR: dir, PORT: '0', NATS_URL: 'nats://127.0.0.1:9' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    assert.equal(code, 1, output);
    assert.ok(output.includes(`no snapshot in ${dir} passes its check`), output);
    assert.ok(output.includes(`${path.join(dir, 'current.sqlite')}: truncated`), output);
    assert.ok(output.includes(`${older}: SHA-256`), output);
  });
});
