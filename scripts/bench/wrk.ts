// Runs wrk against one endpoint with the bench's Lua scripts and parses its summary.
import path from 'node:path';

import { LOAD_CLASSES } from './args.ts';
import type { LoadClass } from './args.ts';
import { runAsync } from './processes.ts';
import { waitedForCoreSeconds } from './proc-stats.ts';

export interface WrkResult {
  requests: number;
  seconds: number;
  rps: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Responses with status >= 400 (wrk's "Non-2xx or 3xx responses"). */
  non2xx: number;
  socketErrors: number;
  /** Status counts, only in diagnostic runs (countStatuses). */
  statuses: Record<string, number>;
  /**
   * Milliseconds per second of the run that wrk's threads together spent runnable but waiting for a core
   * (WaitSampler; absent before session 18). A response that arrives meanwhile is read late, and its latency
   * counts that wait: a client on a machine of its own would not.
   */
  waitedMsPerSecond?: number;
}

export interface WrkTarget {
  /** Base URL, always http://127.0.0.1:<port>. */
  base: string;
  /** Fixed path, or a file of paths (one per line) to cycle through. */
  path?: string;
  pathsFile?: string;
  apiKey: string;
  /** Where to start in the paths file. */
  offset?: number;
}

export interface WrkOptions {
  threads: number;
  connections: number;
  seconds: number;
  countStatuses?: boolean;
  log?: string;
  /** How wrk is scheduled (LOAD_CLASSES in args.ts). */
  loadClass: LoadClass;
  /** Sent as Accept-Encoding with every request (common.lua). */
  acceptEncoding?: string;
}

const LUA_DIR = path.join(import.meta.dirname, 'wrk');

interface WrkJson {
  requests: number;
  durationUs: number;
  errors: { connect: number; read: number; write: number; status: number; timeout: number };
  latencyUs: { p50: number; p90: number; p99: number; max: number };
  statuses: Record<string, number>;
}

export async function runWrk(target: WrkTarget, options: WrkOptions): Promise<WrkResult> {
  if (!target.base.startsWith('http://127.0.0.1:')) throw new Error(`the bench only loads 127.0.0.1, not ${target.base}`);
  const common = ['-t', String(options.threads), '-c', String(options.connections), '-d', `${options.seconds}s`,
    '--timeout', '10s', '--latency'];
  const args = target.pathsFile
    ? [...common, '-s', path.join(LUA_DIR, 'mix.lua'), `${target.base}/`, '--', target.apiKey, target.pathsFile,
      String(options.threads), String(target.offset ?? 0)]
    : [...common, '-s', path.join(LUA_DIR, 'fixed.lua'), `${target.base}${target.path ?? '/'}`, '--', target.apiKey];
  const env = {
    ...process.env,
    BENCH_LUA_DIR: LUA_DIR,
    BENCH_COUNT_STATUS: options.countStatuses ? '1' : '0',
    BENCH_ACCEPT_ENCODING: options.acceptEncoding ?? '',
  };
  const [command, ...argv] = [...LOAD_CLASSES[options.loadClass].prefix, 'wrk', ...args];
  const waits = new WaitSampler();
  const { code, stdout, stderr } = await runAsync(command, argv, { env, log: options.log, onSpawn: (pid) => waits.start(pid) }).finally(() => waits.stop());
  const line = stdout.split('\n').find((l) => l.startsWith('BENCH_JSON '));
  if (code !== 0 || !line) throw new Error(`wrk failed (exit ${code}):\n${stdout}\n${stderr}`);
  const json = JSON.parse(line.slice('BENCH_JSON '.length)) as WrkJson;
  const non2xxLine = /Non-2xx or 3xx responses:\s*(\d+)/.exec(stdout);
  const seconds = json.durationUs / 1e6;
  const e = json.errors;
  return {
    requests: json.requests,
    seconds,
    rps: json.requests / seconds,
    p50Ms: json.latencyUs.p50 / 1000,
    p90Ms: json.latencyUs.p90 / 1000,
    p99Ms: json.latencyUs.p99 / 1000,
    maxMs: json.latencyUs.max / 1000,
    non2xx: non2xxLine ? Number(non2xxLine[1]) : e.status,
    socketErrors: e.connect + e.read + e.write + e.timeout,
    statuses: json.statuses,
    waitedMsPerSecond: waits.msPerSecond(),
  };
}

/** How often wrk's waits are read: the first and last readings bound the figure (the process's own threads are
 * gone from /proc once it exits, so the last reading is at most this long before the end). */
const WAIT_SAMPLE_MS = 100;

/** Reads a running process's waits for a core (waitedForCoreSeconds) while it runs, and rates them. */
class WaitSampler {
  #timer: NodeJS.Timeout | undefined;
  #first: { at: number; waited: number } | undefined;
  #last: { at: number; waited: number } | undefined;

  start(pid: number): void {
    this.#timer = setInterval(() => {
      const waited = waitedForCoreSeconds(pid);
      if (Number.isNaN(waited)) return;
      const reading = { at: performance.now(), waited };
      this.#first ??= reading;
      this.#last = reading;
    }, WAIT_SAMPLE_MS);
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  /** Undefined unless two readings at least a second apart were taken. */
  msPerSecond(): number | undefined {
    const first = this.#first;
    const last = this.#last;
    if (!first || !last || last.at - first.at < 1000) return undefined;
    return ((last.waited - first.waited) * 1000) / ((last.at - first.at) / 1000);
  }
}
