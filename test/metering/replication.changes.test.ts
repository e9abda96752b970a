// The row changes replicated metering sends between hosts' copies (services/metering/replication/changes.ts):
// captured on one real SQLite file, applied to another, the replicated tables end up equal.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';

import { openMeteringDb, type Db } from '../../services/metering/db/open.ts';
import { openShardDbs } from '../../services/metering/db/shards.ts';
import { ChangeCapture, REPLICATED_TABLES } from '../../services/metering/replication/changes.ts';
import { createAccounts } from '../../services/metering/store/accounts.ts';
import { QuotaStore } from '../../services/metering/store/quota.ts';
import { tempDir } from './support.ts';

const rows = (db: Db, table: string) => db.prepare(`SELECT ${table === 'registration_attempts' ? 'rowid, ' : ''}* FROM ${table} ORDER BY 1`).all();

function copies() {
  const open = () => {
    const dir = tempDir('changes');
    const main = openMeteringDb(path.join(dir, 'metering.db'));
    return { main, shard: openShardDbs(dir, main)[0] };
  };
  const a = open();
  const b = open();
  return {
    a,
    b,
    accounts: [new ChangeCapture(a.main, REPLICATED_TABLES.accounts, 'A'), new ChangeCapture(b.main, REPLICATED_TABLES.accounts, 'A')] as const,
    shards: [new ChangeCapture(a.shard, REPLICATED_TABLES.shard, 'S'), new ChangeCapture(b.shard, REPLICATED_TABLES.shard, 'S')] as const,
  };
}

describe('replication changes', () => {
  test('replication changes - a registration, a key change and a pruned attempt applied elsewhere give the same rows', () => {
    const { a, b, accounts } = copies();
    const store = createAccounts(a.main);
    a.main.transaction(() => {
      store.insertDeveloper({ id: 'dev_1', name: 'Ada', email: 'ada@example.org', organization: null, use_case: null, created_at: 1 });
      store.insertKey({ id: 'key_1', developer_id: 'dev_1', key_hash: 'h'.repeat(64), prefix: 'svc_live_12345678', name: 'default', created_at: 1, registrant_name: 'Ada', registrant_organization: null, registrant_address: '10.0.0.1' });
      a.main.prepare('INSERT INTO registration_attempts (ip, at) VALUES (?, ?)').run('10.0.0.1', 1);
    })();
    assert.equal(accounts[1].apply(1, accounts[0].take()), true);
    // The developer row updated while a key refers to it: an upsert, which the foreign key allows.
    a.main.transaction(() => {
      store.setPlan('dev_1', 'team', ['key_1']);
      store.revoke('key_1', 5);
      a.main.prepare('DELETE FROM registration_attempts').run();
    })();
    assert.equal(accounts[1].apply(2, accounts[0].take()), true);
    assert.equal(accounts[1].apply(2, []), false, 'a message already applied is skipped');
    for (const table of REPLICATED_TABLES.accounts) assert.deepEqual(rows(b.main, table), rows(a.main, table), table);
    assert.equal(accounts[1].applied(), 2);
  });

  test('replication changes - a group of grants travels as the last image of each row', () => {
    const { a, b, shards } = copies();
    const quota = new QuotaStore(a.shard);
    const slot = { keyId: 'key_1', endpoint: 'GET /api/v1/words' as const, day: '2026-01-01' };
    for (const holder of ['h1', 'h2', 'h1']) quota.grant(slot, { holder, worker: holder, limit: 100, want: 5, requestId: `r-${holder}-${Math.random()}`.replace('.', '') }, 1);
    quota.release(slot, 'h2', [[1, 100]], 2);
    const changes = shards[0].take();
    assert.equal(changes.length, 3, JSON.stringify(changes));
    shards[1].apply(1, changes);
    for (const table of REPLICATED_TABLES.shard) assert.deepEqual(rows(b.shard, table), rows(a.shard, table), table);
  });
});
