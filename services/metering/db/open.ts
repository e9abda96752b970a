// Opens metering.db in WAL mode, readable by the service's user only, and brings its schema up to date.
import fs from 'node:fs';
import path from 'node:path';

import Database from 'better-sqlite3';

import { makePrivateDir, makePrivateFile, PRIVATE_FILE_MODE } from '../../shared/private-files.ts';
import { MIGRATIONS } from './migrations.ts';

export type Db = Database.Database;

/** Wait this long for a lock held by another connection (an online backup) before failing. */
const BUSY_TIMEOUT_MS = 5000;

export function openMeteringDb(file: string): Db {
  makePrivateDir(path.dirname(path.resolve(file)));
  // 0600 before SQLite opens it, whatever the umask: SQLite creates -wal and -shm with the database's mode.
  makePrivateFile(file);
  for (const companion of [`${file}-wal`, `${file}-shm`]) {
    if (fs.existsSync(companion)) fs.chmodSync(companion, PRIVATE_FILE_MODE);
  }
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
