// Rolls the API workers of the stack running for DATA_DIR with `pm2 reload api`: one by one, each signalling
// ready once it listens, so the port never lacks a listener; then checks that all came back.
import { findStack, noStackMessage, pm2Interactive, stackProcesses } from '../shared/running-stack.ts';

import type { RunningStack } from '../shared/running-stack.ts';

export class ReloadError extends Error {
  override readonly name = 'ReloadError';
}

/** The stack for `dataDir` with an API worker online; a ReloadError saying why not otherwise. */
export async function stackWithWorkers(dataDir: string): Promise<RunningStack> {
  const stack = await findStack(dataDir);
  if (!stack) throw new ReloadError(noStackMessage(dataDir));
  const api = (await stackProcesses(stack, process.env)).filter((p) => p.name === 'api');
  if (!api.some((p) => p.pm2_env.status === 'online')) throw new ReloadError(`the stack for DATA_DIR=${stack.dataDir} runs no API worker`);
  return stack;
}

/** Reloads the stack's API workers; returns how many came back online, or throws a ReloadError. */
export async function reloadApiWorkers(stack: RunningStack): Promise<number> {
  const retry = 'They serve the previous snapshot until they restart: retry with `npm run pm2 -- reload api`.';
  const code = await pm2Interactive(stack, ['reload', 'api'], process.env);
  if (code !== 0) throw new ReloadError(`the snapshot is switched, but \`pm2 reload api\` failed (exit ${code}). ${retry}`);
  const api = (await stackProcesses(stack, process.env)).filter((p) => p.name === 'api');
  const down = api.filter((p) => p.pm2_env.status !== 'online');
  if (api.length === 0 || down.length > 0) {
    throw new ReloadError(`the snapshot is switched, but ${down.length || 'no'} API worker(s) are not online after the reload. ${retry}`);
  }
  return api.length;
}

/**
 * The stack for `dataDir` when it has API workers in any state: an agent that switched the snapshot while they
 * were still starting reloads them too, so that none keeps serving the snapshot it opened before the switch.
 */
export async function stackWithAnyWorker(dataDir: string): Promise<RunningStack | undefined> {
  const stack = await findStack(dataDir);
  if (!stack) return undefined;
  return (await stackProcesses(stack, process.env)).some((p) => p.name === 'api') ? stack : undefined;
}
