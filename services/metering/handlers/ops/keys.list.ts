// ops keys list <email>
import type { MeteringContext } from '../../context.ts';
import { findDeveloper, keyRow } from './rows.ts';

export function handleKeysList(ctx: MeteringContext, req: { email: string }) {
  return { keys: ctx.accounts.keysOf(findDeveloper(ctx, req.email).id).map((k) => keyRow(k, ctx.now())) };
}
