// ops developers set-plan <email> <plan> (--keys <prefix>,… | --all-keys): the keys named move to the plan; the new
// limit applies on every worker within a second.
import type { Plan } from '../../../shared/plans.ts';
import { ServiceFault, type MeteringContext } from '../../context.ts';
import { keyStatus, type KeyRecord } from '../../store/accounts.ts';
import { developerRow, findDeveloper, keyRow } from './rows.ts';

export async function handleDevelopersSetPlan(ctx: MeteringContext, req: { email: string; plan: Plan; keys?: string[]; allKeys?: boolean }) {
  const developer = findDeveloper(ctx, req.email);
  const keys = ctx.accounts.keysOf(developer.id);
  const chosen = chooseKeys(ctx, req, keys);
  await ctx.accountCommits.run(() => ctx.accounts.setPlan(developer.id, req.plan, chosen.map((k) => k.id)));
  ctx.broadcastKeysChanged(
    chosen.map((k) => k.key_hash),
    'plan',
  );
  const now = ctx.now();
  const after = ctx.accounts.keysOf(developer.id);
  const ids = new Set(chosen.map((k) => k.id));
  return {
    developer: developerRow(findDeveloper(ctx, req.email), after.length),
    changed: after.filter((k) => ids.has(k.id)).map((k) => keyRow(k, now)),
    unchanged: after.filter((k) => !ids.has(k.id)).map((k) => keyRow(k, now)),
  };
}

/**
 * Registration is idempotent on email (spec), so a developer's keys may include one a stranger registered under
 * their address, and even their only key may be a stranger's (the owner never registered). A plan change is
 * therefore applied only to the keys the operator names, or to all of them when told so.
 */
function chooseKeys(ctx: MeteringContext, req: { email: string; keys?: string[]; allKeys?: boolean }, keys: KeyRecord[]): KeyRecord[] {
  if (req.keys !== undefined && req.allKeys) throw new ServiceFault('bad_request', 'name keys with --keys or choose --all-keys, not both');
  if (req.allKeys) return keys;
  if (req.keys !== undefined) {
    return [...new Set(req.keys)].map((prefix) => {
      const matching = keys.filter((k) => k.prefix === prefix);
      if (matching.length === 0) throw new ServiceFault('not_found', `${req.email} has no key with prefix ${prefix}`);
      if (matching.length > 1) throw new ServiceFault('ambiguous', `${matching.length} keys of ${req.email} share the prefix ${prefix}; use --all-keys`);
      return matching[0];
    });
  }
  const usable = keys.filter((k) => keyStatus(k, ctx.now()) === 'usable');
  if (usable.length === 0) return usable;
  const which = usable.length === 1 ? `1 usable key (${usable[0].prefix}), which` : `${usable.length} usable keys (${usable.map((k) => k.prefix).join(', ')}), which`;
  throw new ServiceFault(
    'ambiguous',
    `${req.email} has ${which} other people may have registered under that address: see who registered each with ` +
      `\`keys list ${req.email}\`, then name the keys to change with --keys <prefix>[,<prefix>] or change them all with --all-keys`,
  );
}
