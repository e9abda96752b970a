// Restoring `npm run ops -- backup` as docs/operating.md says, on the production stack under pm2: stop
// metering and the workers, put the backup in place of metering.db and of each shard's quota file (their -wal
// and -shm removed), remove the host's allowance, start them again: developers, keys and usage are those of
// the backup's moment.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { HOST_LEDGER_DIR } from '../../services/api/metering-client/host-ledger.ts';
import { shardFile } from '../../services/metering/db/shards.ts';
import { shardBackupFile } from '../../services/metering/handlers/ops/backup.ts';
import { SHARD_COUNT } from '../../services/shared/metering-protocol/subjects.ts';

import { integrityCheck } from '../support/faults.ts';
import { startPm2Stack, waitHealthy, type Pm2Stack } from '../support/pm2-stack.ts';

async function serve(stack: Pm2Stack, key: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${stack.baseUrl}/api/v1/${i % 2 ? 'stats' : 'languages'}`, { headers: { 'x-api-key': key } });
    await res.arrayBuffer();
    assert.equal(res.status, 200);
  }
}

describe('backup and restore', () => {
  let stack: Pm2Stack;
  before(async () => {
    stack = await startPm2Stack({ workers: 2 });
  });
  after(async () => {
    await stack?.stop();
  });

  it('backup and restore - stop, restore the backup file, start: developers, keys and usage counts are the backup\'s', async () => {
    const key = await stack.newKey('kept@example.org');
    await serve(stack, key, 40);
    // Workers hand their unused units back when they stop: the usage is then what was served.
    await stack.pm2('stop', 'api');
    const usageAtBackup = await stack.ops('usage', 'kept@example.org', '--json');
    const keysAtBackup = await stack.ops('keys', 'list', 'kept@example.org', '--json');
    const file = path.join(stack.dataDir, 'metering-backup.db');
    assert.match(await stack.ops('backup', file), /backup written to/);

    await stack.pm2('start', 'api');
    await waitHealthy(stack.baseUrl, 30_000);
    await serve(stack, key, 20);
    // The host holds a block per endpoint for the day: a request to another endpoint leases one, so that usage
    // surely moves on after the backup.
    const other = await fetch(`${stack.baseUrl}/api/v1/word-of-the-day`, { headers: { 'x-api-key': key } });
    await other.arrayBuffer();
    assert.equal(other.status, 200);
    await stack.newKey('after-backup@example.org');
    await stack.pm2('stop', 'api');
    assert.notEqual(await stack.ops('usage', 'kept@example.org', '--json'), usageAtBackup, 'usage moved on after the backup');

    // The restore: stop, replace the file (a WAL left beside it belongs to the newer database), start.
    await stack.pm2('stop', 'metering');
    const db = path.join(stack.dataDir, 'metering.db');
    for (const [from, to] of [[file, db], ...Array.from({ length: SHARD_COUNT }, (_, n) => [shardBackupFile(file, n), shardFile(stack.dataDir, n)])]) {
      fs.copyFileSync(from, to);
      fs.rmSync(`${to}-wal`, { force: true });
      fs.rmSync(`${to}-shm`, { force: true });
      assert.equal(integrityCheck(to), 'ok');
    }
    // The units the host held were leased after the backup's moment: the restored metering knows nothing of them.
    fs.rmSync(path.join(stack.dataDir, HOST_LEDGER_DIR), { recursive: true, force: true });
    await stack.pm2('start', 'metering');
    await stack.pm2('start', 'api');
    await waitHealthy(stack.baseUrl, 30_000);

    assert.equal(await stack.ops('usage', 'kept@example.org', '--json'), usageAtBackup);
    assert.equal(await stack.ops('keys', 'list', 'kept@example.org', '--json'), keysAtBackup);
    const developers = JSON.parse(await stack.ops('developers', 'list', '--json')) as { developers: { email: string }[] };
    assert.deepEqual(developers.developers.map((d) => d.email), ['kept@example.org']);
    // The restored key is served, and counted on from the backup's figures.
    await serve(stack, key, 2);
  });
});
