// ops developers suspend <email> / reinstate <email>: every key of the developer stops or resumes working.
import type { MeteringContext } from '../../context.ts';
import { afterChange, findDeveloper } from './rows.ts';

export async function handleDevelopersSuspend(ctx: MeteringContext, req: { email: string }) {
  const developer = findDeveloper(ctx, req.email);
  if (developer.suspended_at === null) await ctx.accountCommits.run(() => ctx.accounts.setSuspended(developer.id, ctx.now()));
  return afterChange(ctx, req.email, 'suspended');
}

export async function handleDevelopersReinstate(ctx: MeteringContext, req: { email: string }) {
  const developer = findDeveloper(ctx, req.email);
  await ctx.accountCommits.run(() => ctx.accounts.setSuspended(developer.id, null));
  return afterChange(ctx, req.email, 'reinstated');
}
