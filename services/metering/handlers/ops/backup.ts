// ops backup <file>: SQLite online backup of metering.db and of each shard's quota file (<file>.shard-NN), taken
// by the service while it keeps serving; the copies are 0600 like the databases. A backup only ever makes new
// files: each copy is written in a private directory made beside it and then hard-linked into place, and link()
// fails on any existing path (a file, a symlink) without following it. A destination that cannot be written is
// the operator's error, answered as such: never taken for a fault of metering.db.
import fs from 'node:fs';
import path from 'node:path';

import { PRIVATE_FILE_MODE } from '../../../shared/private-files.ts';
import { ServiceFault, type MeteringContext } from '../../context.ts';
import { describeStorageError } from '../../storage-health.ts';
import type { Db } from '../../db/open.ts';

export async function handleBackup(ctx: MeteringContext, req: { file: string }) {
  const file = path.resolve(req.file);
  const dir = path.dirname(file);
  if (!isDirectory(dir)) throw new ServiceFault('bad_request', `no directory ${dir}`, 'file');
  // Shards kept in metering.db itself (a service run in one process by tests) are in its copy already.
  const copies: { db: Db; file: string }[] = [{ db: ctx.db, file }];
  for (const [n, shard] of ctx.shards.entries()) {
    if (shard.db !== ctx.db) copies.push({ db: shard.db, file: shardBackupFile(file, n) });
  }
  for (const copy of copies) {
    if (exists(copy.file)) {
      throw new ServiceFault('bad_request', `${copy.file} already exists: a backup is written to a new file only; name a path that does not exist`, 'file');
    }
  }
  let staging: string;
  try {
    staging = fs.mkdtempSync(path.join(dir, '.backup-'));
  } catch (error) {
    throw new ServiceFault('bad_request', `cannot write in ${dir}: ${(error as Error).message}`, 'file');
  }
  const linked: string[] = [];
  try {
    let bytes = 0;
    for (const copy of copies) {
      bytes += await write(copy.db, path.join(staging, path.basename(copy.file)), copy.file);
      linked.push(copy.file);
    }
    return { file, bytes };
  } catch (error) {
    // Half a backup is no backup: the copies already linked go too.
    for (const done of linked) fs.rmSync(done, { force: true });
    if (error instanceof ServiceFault) throw error;
    throw new ServiceFault('bad_request', `cannot write the backup to ${file}: ${describeStorageError(error)}`, 'file');
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** Where the backup of shard `n` goes beside the backup of metering.db. */
export function shardBackupFile(file: string, n: number): string {
  return `${file}.shard-${String(n).padStart(2, '0')}`;
}

/** Copies `db` to `staged` (in the private staging directory), then links it at `file`; returns its size. */
async function write(db: Db, staged: string, file: string): Promise<number> {
  // A copy of the personal data: 0600 from its creation, and after SQLite has written it.
  fs.closeSync(fs.openSync(staged, 'wx', PRIVATE_FILE_MODE));
  await db.backup(staged);
  fs.chmodSync(staged, PRIVATE_FILE_MODE);
  try {
    fs.linkSync(staged, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    throw new ServiceFault('bad_request', `${file} already exists: a backup is written to a new file only; name a path that does not exist`, 'file');
  }
  return fs.statSync(file).size;
}

function exists(file: string): boolean {
  try {
    fs.lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
