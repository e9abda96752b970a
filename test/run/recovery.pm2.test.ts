// Recovery without a person, under pm2 with the production bundles and ecosystem: a metering.db that cannot be
// opened (random bytes) makes metering exit with a clear message; pm2 keeps restarting it with back-off instead
// of giving up, and once the file is mended (restored from a backup) metering is back and the service answers
// again, with nobody restarting anything. Needs `node scripts/bundle.mjs` (npm test runs it).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import { pm2Process, pm2Processes } from '../support/faults.ts';
import { startPm2Stack, type Pm2Stack } from '../support/pm2-stack.ts';

/** Longer than pm2 takes to give up on a process that exits at once under a fixed restart_delay (16 exits). */
const BROKEN_FOR_MS = 14_000;

describe('metering recovers by itself', () => {
  let stack: Pm2Stack;
  before(async () => {
    stack = await startPm2Stack({ workers: 1 });
  });
  after(async () => {
    await stack?.stop();
  });

  const health = async (): Promise<number> => {
    const res = await fetch(`${stack.baseUrl}/healthz`).catch(() => undefined);
    await res?.arrayBuffer();
    return res?.status ?? 0;
  };

  it('metering recovers by itself - an unopenable metering.db: exit with a message, restarts with back-off, back once mended', async () => {
    const email = `recover-${process.pid}@example.org`;
    const key = await stack.newKey(email);
    const backup = path.join(stack.dataDir, 'metering.backup.db');
    await stack.ops('backup', backup);

    // Stopped cleanly first, so that no WAL still holds the pages: the process meets the random bytes at start.
    const db = path.join(stack.dataDir, 'metering.db');
    await stack.pm2('stop', 'metering');
    fs.writeFileSync(db, randomBytes(fs.statSync(db).size));
    for (const companion of ['-wal', '-shm']) fs.rmSync(`${db}${companion}`, { force: true });
    await stack.pm2('start', 'metering');
    await sleep(BROKEN_FOR_MS);

    const broken = (await pm2Processes(stack)).find((p) => p.name === 'metering');
    assert.ok(broken, 'metering is still a pm2 process');
    assert.notEqual(broken.status, 'errored', `pm2 kept restarting it: ${JSON.stringify(broken)}`);
    assert.ok(broken.restarts >= 3, `restarted with back-off: ${JSON.stringify(broken)}`);
    assert.equal(await health(), 503, 'the workers report metering down');
    // Read from pm2's files: `pm2 logs` prints the error file's lines on its own stderr.
    const logDir = path.join(stack.env.PM2_HOME ?? '', 'logs');
    const log = fs.readdirSync(logDir).filter((f) => f.startsWith('metering-')).map((f) => fs.readFileSync(path.join(logDir, f), 'utf8')).join('');
    assert.match(log, /metering\.db cannot be opened: exiting so that pm2 restarts metering with back-off/, log);
    assert.match(log, /SQLITE_NOTADB/, log);

    // Mended by restoring the backup; nobody touches pm2.
    for (const companion of ['-wal', '-shm']) fs.rmSync(`${db}${companion}`, { force: true });
    fs.copyFileSync(backup, db);
    const deadline = Date.now() + 30_000;
    let status = 0;
    while (Date.now() < deadline && (status = await health()) !== 200) await sleep(250);
    assert.equal(status, 200, 'healthy again without a restart by hand');
    const res = await fetch(`${stack.baseUrl}/api/v1/languages`, { headers: { 'x-api-key': key } });
    assert.equal(res.status, 200, await res.text());
    assert.equal((await pm2Process(stack, 'metering')).status, 'online');
  });
});
