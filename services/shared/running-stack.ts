// The stack `npm start` runs for a DATA_DIR, found through its pm2 home ($DATA_DIR/pm2): whether its pm2
// daemon (pm2-runtime under npm start) answers, its processes, and the pm2 CLI run against it. A command
// that finds no daemon says so and stops: the pm2 CLI, run against a home whose daemon is down, would start
// a daemon of its own there.
import { execFile, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';

import { z } from 'zod';

const run = promisify(execFile);

/** A live daemon accepts on its RPC socket at once; this is for a machine under load. */
const CONNECT_TIMEOUT_MS = 2_000;

export interface RunningStack {
  dataDir: string;
  pm2Home: string;
}

/** The pm2 home npm start gives a DATA_DIR. */
export function pm2HomeOf(dataDir: string): string {
  return path.join(path.resolve(dataDir), 'pm2');
}

/** The pm2 CLI of this clone (a dependency), not whichever pm2 is on PATH. */
function pm2Cli(): string {
  return path.join(path.dirname(createRequire(import.meta.url).resolve('pm2/package.json')), 'bin', 'pm2');
}

/** Whether a pm2 daemon listens on the home's RPC socket (a socket file left by a dead one refuses). */
export function daemonAnswers(pm2Home: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(path.join(pm2Home, 'rpc.sock'));
    const done = (answers: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answers);
    };
    const timer = setTimeout(() => done(false), CONNECT_TIMEOUT_MS);
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** The running stack of `dataDir`, or undefined when no pm2 daemon answers in its home. */
export async function findStack(dataDir: string): Promise<RunningStack | undefined> {
  const pm2Home = pm2HomeOf(dataDir);
  return (await daemonAnswers(pm2Home)) ? { dataDir: path.resolve(dataDir), pm2Home } : undefined;
}

/** What to tell someone whose command found no stack. */
export function noStackMessage(dataDir: string): string {
  return (
    `no stack is running for DATA_DIR=${path.resolve(dataDir)} (no pm2 daemon answers in ${pm2HomeOf(dataDir)}). ` +
    'Start it with `npm start` (with the same DATA_DIR), or set DATA_DIR to the one it runs with.'
  );
}

function pm2Env(stack: RunningStack, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, PM2_HOME: stack.pm2Home };
}

/** Runs the pm2 CLI against the stack, its output on this terminal; resolves with its exit code. */
export function pm2Interactive(stack: RunningStack, args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [pm2Cli(), ...args], { env: pm2Env(stack, env), stdio: 'inherit' });
    child.once('error', () => resolve(1));
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const pm2Process = z.object({
  name: z.string(),
  pid: z.number(),
  pm2_env: z
    .object({
      status: z.string(),
      restart_time: z.number().default(0),
      env: z.record(z.unknown()).default({}),
    })
    .passthrough(),
});

export type Pm2Process = z.infer<typeof pm2Process>;

/** The stack's processes, as `pm2 jlist` gives them. */
export async function stackProcesses(stack: RunningStack, env: NodeJS.ProcessEnv): Promise<Pm2Process[]> {
  const { stdout } = await run(process.execPath, [pm2Cli(), 'jlist'], { env: pm2Env(stack, env), maxBuffer: 64 * 1024 * 1024 });
  // pm2 may print notices before the JSON.
  return z.array(pm2Process).parse(JSON.parse(stdout.slice(stdout.indexOf('['))));
}
