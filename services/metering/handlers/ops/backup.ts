// ops backup <file>: SQLite online backup of metering.db and of each shard's quota file (<file>.shard-NN), taken
// by the service while it keeps serving; the copies are 0600 like the databases.
import fs from 'node:fs';
import path from 'node:path';

import { makePrivateFile, PRIVATE_FILE_MODE } from '../../../shared/private-files.ts';
import { ServiceFault, type MeteringContext } from '../../context.ts';
import type { Db } from '../../db/open.ts';

export async function handleBackup(ctx: MeteringContext, req: { file: string }) {
  const file = path.resolve(req.file);
  if (!fs.existsSync(path.dirname(file))) throw new ServiceFault('bad_request', `no directory ${path.dirname(file)}`);
  let bytes = await copy(ctx.db, file);
  // Shards kept in metering.db itself (a service run in one process by tests) are in its copy already.
  for (const [n, shard] of ctx.shards.entries()) {
    if (shard.db !== ctx.db) bytes += await copy(shard.db, shardBackupFile(file, n));
  }
  return { file, bytes };
}

/** Where the backup of shard `n` goes beside the backup of metering.db. */
export function shardBackupFile(file: string, n: number): string {
  return `${file}.shard-${String(n).padStart(2, '0')}`;
}

async function copy(db: Db, file: string): Promise<number> {
  // A copy of the personal data: 0600 from its creation, and after SQLite has written it.
  makePrivateFile(file);
  await db.backup(file);
  fs.chmodSync(file, PRIVATE_FILE_MODE);
  return fs.statSync(file).size;
}
