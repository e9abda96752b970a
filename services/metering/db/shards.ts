// The keys' daily quota by shard: one SQLite file per shard (DATA_DIR/quota/shard-NN.db), so that metering
// processes serving different shards commit without waiting for each other's write lock and fsync, and so that
// a change of their number moves no data (a shard is a file; the processes only share them out).
import fs from 'node:fs';
import path from 'node:path';

import Database from 'better-sqlite3';

import { shardOf, SHARD_COUNT } from '../../shared/metering-protocol/subjects.ts';
import { makePrivateDir, makePrivateFile, PRIVATE_FILE_MODE } from '../../shared/private-files.ts';
import type { Db } from './open.ts';

/** Where the shard files live, under DATA_DIR. */
export const SHARDS_DIR = 'quota';
const BUSY_TIMEOUT_MS = 5000;

/** The tables of metering.db's quota (migrations.ts), as they are there now. */
const SCHEMA = `
  CREATE TABLE IF NOT EXISTS quota_days (
    key_id TEXT NOT NULL, endpoint TEXT NOT NULL, day TEXT NOT NULL,
    next_unit INTEGER NOT NULL, used INTEGER NOT NULL, free TEXT NOT NULL,
    PRIMARY KEY (key_id, endpoint, day)
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS quota_days_day ON quota_days (day);
  CREATE TABLE IF NOT EXISTS quota_holds (
    key_id TEXT NOT NULL, endpoint TEXT NOT NULL, day TEXT NOT NULL, holder TEXT NOT NULL, worker TEXT NOT NULL,
    ranges TEXT NOT NULL, last_request TEXT, last_grant TEXT, updated_at INTEGER NOT NULL,
    outstanding TEXT NOT NULL DEFAULT '[]',
    PRIMARY KEY (key_id, endpoint, day, holder)
  ) WITHOUT ROWID;
`;

export function shardFile(dataDir: string, shard: number): string {
  return path.join(dataDir, SHARDS_DIR, `shard-${String(shard).padStart(2, '0')}.db`);
}

/**
 * Opens every shard's file (a process writes only its own shards' but reads any, for ops usage), creating it
 * with the quota metering.db held for the shard's keys before shards existed.
 */
export function openShardDbs(dataDir: string, main: Db): Db[] {
  makePrivateDir(path.join(dataDir, SHARDS_DIR));
  return Array.from({ length: SHARD_COUNT }, (_, shard) => openShard(shardFile(dataDir, shard), shard, main));
}

function openShard(file: string, shard: number, main: Db): Db {
  makePrivateFile(file);
  for (const companion of [`${file}-wal`, `${file}-shm`]) {
    if (fs.existsSync(companion)) fs.chmodSync(companion, PRIVATE_FILE_MODE);
  }
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  // FULL, as metering.db: a grant rolled back by a power loss after its reply would hand its units out twice.
  db.pragma('synchronous = FULL');
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  db.transaction(() => {
    if ((db.pragma('user_version', { simple: true }) as number) > 0) return;
    db.exec(SCHEMA);
    copyFromMain(db, shard, main);
    db.pragma('user_version = 1');
  }).immediate();
  return db;
}

/** The rows of this shard's keys that metering.db holds from before shards (once, when the file is made). */
function copyFromMain(db: Db, shard: number, main: Db): void {
  const ids = new Set(
    main
      .prepare<[], { id: string; key_hash: string }>('SELECT id, key_hash FROM api_keys')
      .all()
      .filter((k) => shardOf(k.key_hash) === shard)
      .map((k) => k.id),
  );
  if (ids.size === 0) return;
  const day = db.prepare('INSERT OR IGNORE INTO quota_days VALUES (@key_id, @endpoint, @day, @next_unit, @used, @free)');
  for (const row of main.prepare<[], Record<string, unknown>>('SELECT key_id, endpoint, day, next_unit, used, free FROM quota_days').iterate()) {
    if (ids.has(String(row.key_id))) day.run(row);
  }
  const hold = db.prepare(
    `INSERT OR IGNORE INTO quota_holds (key_id, endpoint, day, holder, worker, ranges, last_request, last_grant, updated_at, outstanding)
     VALUES (@key_id, @endpoint, @day, @holder, @worker, @ranges, @last_request, @last_grant, @updated_at, @outstanding)`,
  );
  const holds = 'SELECT key_id, endpoint, day, holder, worker, ranges, last_request, last_grant, updated_at, outstanding FROM quota_holds';
  for (const row of main.prepare<[], Record<string, unknown>>(holds).iterate()) {
    if (ids.has(String(row.key_id))) hold.run(row);
  }
}
