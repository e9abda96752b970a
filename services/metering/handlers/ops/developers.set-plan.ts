// ops developers set-plan <email> <plan>: the new limit applies on every worker within a second.
import type { Plan } from '../../../shared/plans.ts';
import type { MeteringContext } from '../../context.ts';
import { afterChange, findDeveloper } from './rows.ts';

export function handleDevelopersSetPlan(ctx: MeteringContext, req: { email: string; plan: Plan }) {
  ctx.accounts.setPlan(findDeveloper(ctx, req.email).id, req.plan);
  return afterChange(ctx, req.email, 'plan');
}
