// ops keys revoke <keyPrefix> / keys expire <keyPrefix> [--at ISO]: the key is refused on every worker. The change
// commits in metering.db's group commit (replicated: once the accounts stream has it) before workers are told.
import type { MeteringContext } from '../../context.ts';
import { findKey, keyRow } from './rows.ts';

export async function handleKeysRevoke(ctx: MeteringContext, req: { keyPrefix: string }) {
  const key = findKey(ctx, req.keyPrefix);
  await ctx.accountCommits.run(() => ctx.accounts.revoke(key.id, ctx.now()));
  ctx.broadcastKeysChanged([key.key_hash], 'revoked');
  return { key: keyRow(ctx.accounts.keyById(key.id) ?? key, ctx.now()) };
}

export async function handleKeysExpire(ctx: MeteringContext, req: { keyPrefix: string; at?: string }) {
  const key = findKey(ctx, req.keyPrefix);
  await ctx.accountCommits.run(() => ctx.accounts.expire(key.id, req.at === undefined ? ctx.now() : Date.parse(req.at)));
  // Workers cache the expiry and check it on each admission, so a future expiry also takes effect on time.
  ctx.broadcastKeysChanged([key.key_hash], 'expiry');
  return { key: keyRow(ctx.accounts.keyById(key.id) ?? key, ctx.now()) };
}
