// ops developers show <email>
import type { MeteringContext } from '../../context.ts';
import { developerRow, findDeveloper, keyRow } from './rows.ts';

export function handleDevelopersShow(ctx: MeteringContext, req: { email: string }) {
  const developer = findDeveloper(ctx, req.email);
  const keys = ctx.accounts.keysOf(developer.id);
  return { developer: developerRow(developer, keys.length), keys: keys.map((k) => keyRow(k, ctx.now())) };
}
