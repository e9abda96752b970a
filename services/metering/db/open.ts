// Opens metering.db in WAL mode and brings its schema up to date.
import fs from 'node:fs';
import path from 'node:path';

import Database from 'better-sqlite3';

import { MIGRATIONS } from './migrations.ts';

export type Db = Database.Database;

/** Wait this long for a lock held by another connection (an online backup) before failing. */
const BUSY_TIMEOUT_MS = 5000;

export function openMeteringDb(file: string): Db {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  // FULL: a commit is fsynced before we reply. NORMAL would already survive kill -9 (the WAL is in the OS
  // cache), but not a power loss, after which a grant a worker holds could be handed out twice. Commits
  // are rare (one per leased block, not per request), so the fsync costs little.
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  migrate(db);
  return db;
}

function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  for (let version = current; version < MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version]);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
}
