// Daily usage kept for USAGE_RETENTION_DAYS: rows of older days are deleted at start and once a day, in
// batches; the days inside the period keep their counts.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { connect } from 'nats';

import { openMeteringDb } from '../../services/metering/db/open.ts';
import { silentLog } from '../../services/metering/log.ts';
import { startMeteringService } from '../../services/metering/service.ts';
import { QuotaStore } from '../../services/metering/store/quota.ts';
import { PRUNE_BATCH_ROWS, startUsageRetention } from '../../services/metering/store/retention.ts';
import { utcDay } from '../../services/shared/metering-protocol/day.ts';
import { startNats, type NatsHandle } from '../support/nats.ts';
import { tempDir } from './support.ts';

import type { Db } from '../../services/metering/db/open.ts';

const DAY_MS = 86_400_000;
const NOW = Date.parse('2027-03-10T12:00:00Z');
const ENDPOINTS = ['GET /api/v1/words', 'GET /api/v1/stats'];

/** Usage rows for `keys` keys on both endpoints, for each of the `days` days up to today. */
function fill(db: Db, keys: number, days: number): void {
  const insert = db.prepare('INSERT INTO quota_days (key_id, endpoint, day, next_unit, used, free) VALUES (?, ?, ?, ?, ?, ?)');
  db.transaction(() => {
    for (let d = 0; d < days; d++) {
      const day = utcDay(NOW - d * DAY_MS);
      for (let k = 0; k < keys; k++) for (const endpoint of ENDPOINTS) insert.run(`key_${k}`, endpoint, day, 8, 7, '[]');
    }
  })();
}

const days = (db: Db) =>
  db.prepare('SELECT min(day) AS oldest, max(day) AS newest, count(*) AS rows, sum(used) AS used FROM quota_days').get() as {
    oldest: string;
    newest: string;
    rows: number;
    used: number;
  };

describe('usage retention', () => {
  let nats: NatsHandle;
  before(async () => {
    nats = await startNats();
  });
  after(async () => {
    await nats?.stop();
  });

  it('usage retention - deletes the rows of days more than USAGE_RETENTION_DAYS before today, in batches, and keeps the rest whole', async () => {
    const db = openMeteringDb(path.join(tempDir('retention'), 'metering.db'));
    try {
      fill(db, 4, 900);
      const logged: Record<string, unknown>[] = [];
      const retention = startUsageRetention([new QuotaStore(db)], 400, () => NOW, { info: (f) => logged.push(f), error: (f) => logged.push(f) });
      await retention.idle();
      retention.stop();
      const kept = days(db);
      assert.deepEqual(kept, { oldest: utcDay(NOW - 400 * DAY_MS), newest: utcDay(NOW), rows: 401 * 4 * 2, used: 401 * 4 * 2 * 7 });
      const deleted = 499 * 4 * 2;
      assert.ok(deleted > PRUNE_BATCH_ROWS, 'more than one batch');
      assert.deepEqual(logged, [{ msg: 'usage pruned', before: utcDay(NOW - 400 * DAY_MS), rows: deleted }]);
      const plan = db.prepare('EXPLAIN QUERY PLAN SELECT key_id FROM quota_days WHERE day < ?').all('2026-01-01') as { detail: string }[];
      assert.ok(plan.some((p) => p.detail.includes('quota_days_day')), `the prune finds old days by index: ${JSON.stringify(plan)}`);
    } finally {
      db.close();
    }
  });

  it('usage retention - the metering service prunes at start with its USAGE_RETENTION_DAYS', async () => {
    const db = openMeteringDb(path.join(tempDir('retention-svc'), 'metering.db'));
    const nc = await connect({ servers: nats.url });
    try {
      fill(db, 1, 40);
      const service = await startMeteringService({ nc, db, log: silentLog, now: () => NOW, usageRetentionDays: 30 });
      await service.stop();
      assert.deepEqual(days(db), { oldest: utcDay(NOW - 30 * DAY_MS), newest: utcDay(NOW), rows: 31 * 2, used: 31 * 2 * 7 });
    } finally {
      await nc.close();
      db.close();
    }
  });
});
