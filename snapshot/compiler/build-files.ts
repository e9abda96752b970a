// The files a build writes: the snapshot under a temporary name with its staging database beside it, then renamed
// into place with its downloads and SHA-256, so that a reader never sees half a snapshot.
import { existsSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';

import Database from 'better-sqlite3';

import { makePrivateDir } from '../../services/shared/private-files.ts';
import { downloadsDirOf } from '../format/downloads.ts';
import { writeSha256Sidecar } from '../format/file-hash.ts';
import { SNAPSHOT_TABLES } from '../format/schema.ts';
import { writeKeyFilters } from '../format/stored-filters.ts';
import type { Progress } from './progress.ts';
import { STAGE_TABLES } from './stage-schema.ts';

/** Page cache per database file (snapshot, staging) during the build, in KiB; bounds the build's memory. */
const BUILD_CACHE_KIB = 64 * 1024;

export interface BuildFiles {
  /** Where the snapshot goes. */
  out: string;
  /** The snapshot while it is written, its staging database, and its downloads. */
  tmp: string;
  stagePath: string;
  downloadsTmp: string;
}

/** The build's file names for `out`, with any left by an earlier build of this process removed. */
export function buildFiles(out: string): BuildFiles {
  const resolved = path.resolve(out);
  // The default output is under DATA_DIR, which holds metering.db: created 0700 (private-files.ts).
  makePrivateDir(path.dirname(resolved));
  const tmp = `${resolved}.tmp-${process.pid}`;
  const files = { out: resolved, tmp, stagePath: `${tmp}.stage`, downloadsTmp: downloadsDirOf(tmp) };
  removeTemporaryFiles(files);
  return files;
}

export function removeTemporaryFiles({ tmp, stagePath, downloadsTmp }: BuildFiles): void {
  for (const f of [tmp, stagePath, downloadsTmp]) if (existsSync(f)) rmSync(f, { force: true, recursive: true });
}

/** The snapshot's tables in the temporary file, with the staging database attached as `stage`. */
export function openBuildDatabase({ tmp, stagePath }: BuildFiles): Database.Database {
  const db = new Database(tmp);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma(`cache_size = -${BUILD_CACHE_KIB}`);
  db.pragma('temp_store = FILE');
  db.exec(SNAPSHOT_TABLES);
  db.prepare('ATTACH DATABASE ? AS stage').run(stagePath);
  db.pragma(`stage.cache_size = -${BUILD_CACHE_KIB}`);
  db.pragma('stage.journal_mode = OFF');
  db.pragma('stage.synchronous = OFF');
  db.exec(STAGE_TABLES);
  return db;
}

/**
 * Once every table is written: the full-text indexes merged, the key filters stored, the statistics gathered, the
 * database closed, and the snapshot renamed into place after its downloads and its SHA-256. Returns the
 * downloads' directory.
 */
export function finishSnapshotFile(db: Database.Database, files: BuildFiles, progress: Progress): string {
  db.exec("INSERT INTO head_fts (head_fts) VALUES ('optimize'); INSERT INTO gloss_fts (gloss_fts) VALUES ('optimize');");
  progress.log(`key filters: ${writeKeyFilters(db)}`);
  db.exec('DETACH DATABASE stage');
  db.exec('ANALYZE');
  // better-sqlite3's SQLite is built with STAT4: with sample rows present, every statement whose WHERE
  // binds an indexed column is re-prepared (parsed and planned again) whenever a bound value changes,
  // i.e. on nearly every search step. The reader's statements are all plain key lookups or rank-ordered
  // ranges that sqlite_stat1 plans as well, so the samples would only make every search parse and plan its
  // statements again (the bench's bare loop measures a search).
  db.exec('DROP TABLE sqlite_stat4');
  progress.end();
  db.close();
  // The downloads first: once the snapshot is in place, its downloads are too. A worker that opens the old
  // snapshot in between finds downloads of another version and serves none (snapshot/reader/downloads.ts).
  const downloadsDir = downloadsDirOf(files.out);
  rmSync(downloadsDir, { recursive: true, force: true });
  renameSync(files.downloadsTmp, downloadsDir);
  // Workers check the file against it before they map it (snapshot/reader/check.ts).
  writeSha256Sidecar(files.tmp, files.out);
  renameSync(files.tmp, files.out);
  return downloadsDir;
}
