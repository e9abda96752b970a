// ops developers list
import type { MeteringContext } from '../../context.ts';
import { developerRow } from './rows.ts';

export function handleDevelopersList(ctx: MeteringContext) {
  return { developers: ctx.accounts.developers().map((d) => developerRow(d, d.keys)) };
}
