// ops backup <file>: SQLite online backup of metering.db, taken by the service while it keeps serving.
import fs from 'node:fs';
import path from 'node:path';

import { ServiceFault, type MeteringContext } from '../../context.ts';

export async function handleBackup(ctx: MeteringContext, req: { file: string }) {
  const file = path.resolve(req.file);
  if (!fs.existsSync(path.dirname(file))) throw new ServiceFault('bad_request', `no directory ${path.dirname(file)}`);
  await ctx.db.backup(file);
  return { file, bytes: fs.statSync(file).size };
}
