// ops backup <file>: SQLite online backup of metering.db, taken by the service while it keeps serving; the copy
// is 0600 like the database.
import fs from 'node:fs';
import path from 'node:path';

import { makePrivateFile, PRIVATE_FILE_MODE } from '../../../shared/private-files.ts';
import { ServiceFault, type MeteringContext } from '../../context.ts';

export async function handleBackup(ctx: MeteringContext, req: { file: string }) {
  const file = path.resolve(req.file);
  if (!fs.existsSync(path.dirname(file))) throw new ServiceFault('bad_request', `no directory ${path.dirname(file)}`);
  // A copy of the personal data: 0600 from its creation, and after SQLite has written it.
  makePrivateFile(file);
  await ctx.db.backup(file);
  fs.chmodSync(file, PRIVATE_FILE_MODE);
  return { file, bytes: fs.statSync(file).size };
}
