// Child processes the bench starts, tracked by pid so that every one is stopped on exit, failure or Ctrl-C.
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess, SpawnOptions } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** The repository root, and the node arguments that run a TypeScript file (tsx), for the bench's children. */
export const ROOT = path.resolve(import.meta.dirname, '../..');
export const TSX = ['--import', 'tsx'];

type Cleanup = () => void;

const children = new Set<ChildProcess>();
const cleanups: Cleanup[] = [];
let pidFile: string | undefined;
let cleaned = false;

/** Where pids are recorded too, so that bench.sh's trap can stop them if this process itself dies. */
export function recordPidsIn(file: string): void {
  pidFile = file;
}

function writePids(): void {
  if (!pidFile) return;
  const pids = [...children].map((c) => c.pid).filter((p): p is number => typeof p === 'number');
  fs.writeFileSync(pidFile, pids.map((p) => `${p}\n`).join(''));
}

/**
 * Starts a long-running child in its own process group (detached), so that stopping it also stops anything
 * it started, and so that a Ctrl-C reaches it only through our cleanup.
 */
export function startChild(command: string, args: readonly string[], options: SpawnOptions & { log?: string } = {}): ChildProcess {
  const { log, ...rest } = options;
  const out = log ? fs.openSync(log, 'a') : 'ignore';
  const child = spawn(command, args, { stdio: ['ignore', out, out], detached: true, ...rest });
  if (typeof out === 'number') fs.closeSync(out);
  children.add(child);
  writePids();
  child.once('exit', () => {
    children.delete(child);
    writePids();
  });
  child.once('error', (err) => {
    console.error(`bench: cannot start ${command}: ${err.message}`);
  });
  return child;
}

/** Stops one child started by startChild (its whole group), waiting for it to exit. */
export async function stopChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  signalGroup(child.pid, 'SIGTERM');
  const timer = setTimeout(() => child.pid && signalGroup(child.pid, 'SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

/** Registers a synchronous cleanup (e.g. `pm2 kill` with the bench's PM2_HOME), run once at exit. */
export function onCleanup(fn: Cleanup): void {
  cleanups.push(fn);
}

/** Stops everything, synchronously, in reverse order of registration; safe to call more than once. */
export function cleanupAll(): void {
  if (cleaned) return;
  cleaned = true;
  for (const fn of cleanups.reverse()) {
    try {
      fn();
    } catch (err) {
      console.error(`bench: cleanup step failed: ${(err as Error).message}`);
    }
  }
  for (const child of children) {
    if (child.pid) signalGroup(child.pid, 'SIGKILL');
  }
  children.clear();
  writePids();
}

/** Installs the exit, signal and uncaught-error hooks once. */
export function installCleanupHooks(): void {
  process.once('exit', cleanupAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      console.error(`\nbench: ${signal}, stopping everything it started`);
      cleanupAll();
      process.exit(130);
    });
  }
}

/** Runs a command to completion; throws with its output when it fails. */
export function run(command: string, args: readonly string[], options: { env?: NodeJS.ProcessEnv; cwd?: string; quiet?: boolean } = {}): string {
  const result = spawnSync(command, args, {
    env: options.env ?? process.env,
    cwd: options.cwd,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (result.error) throw new Error(`${command} ${args.join(' ')}: ${result.error.message}`);
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited ${result.status}:\n${result.stdout}\n${result.stderr}`);
  }
  if (!options.quiet && result.stderr.trim()) process.stderr.write(result.stderr);
  return result.stdout;
}

/** Runs a command asynchronously to completion (so the bench keeps its signal handlers responsive). */
export function runAsync(
  command: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; log?: string } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: options.env ?? process.env,
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    writePids();
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      children.delete(child);
      writePids();
      if (options.log) fs.appendFileSync(options.log, `$ ${command} ${args.join(' ')}\n${stdout}${stderr}\n`);
      resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr });
    });
  });
}

/**
 * Runs one of the bench's measuring scripts (scripts/bench/<script>) under tsx, with `nodeArgs` before it,
 * and returns the JSON object it prints as its last line of output.
 */
export async function runBenchScript<T>(script: string, args: readonly string[], nodeArgs: readonly string[] = []): Promise<T> {
  const { code, stdout, stderr } = await runAsync(
    process.execPath,
    [...TSX, ...nodeArgs, path.join(import.meta.dirname, script), ...args],
    { cwd: ROOT },
  );
  if (code !== 0) throw new Error(`${script} exited ${code}:\n${stderr}`);
  return JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as T;
}

/** A loopback port the kernel says is free right now. */
export function freePort(): Promise<number> {
  const server = net.createServer();
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once `file` holds `text`; rejects if `child` exits first or after `timeoutMs`. */
export async function waitForLog(file: string, text: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (fs.existsSync(file) && fs.readFileSync(file, 'utf8').includes(text)) return;
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${child.spawnfile} exited (${child.exitCode ?? child.signalCode}); see ${file}`);
    if (Date.now() > deadline) throw new Error(`${child.spawnfile} did not write "${text}" within ${timeoutMs} ms; see ${file}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
