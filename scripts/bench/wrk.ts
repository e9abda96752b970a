// Runs wrk against one endpoint with the bench's Lua scripts and parses its summary.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

import { runAsync } from './processes.ts';

export interface WrkResult {
  requests: number;
  seconds: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Responses with status >= 400 (wrk's "Non-2xx or 3xx responses"). */
  non2xx: number;
  socketErrors: number;
}

export interface WrkTarget {
  /** Base URL, always http://127.0.0.1:<port>. */
  base: string;
  /** Fixed path, or a file of paths (one per line) to cycle through. */
  path?: string;
  pathsFile?: string;
  /** The keys of each thread: groups separated by ";", keys in a group by "," (wrk/common.lua). */
  apiKeys: string;
  /** Instead: a file of keys, one per line, each request of `path` with the next (wrk/keys.lua). */
  keysFile?: string;
  /** Where to start in the paths file. */
  offset?: number;
  /** Instead: a script of wrk/ that builds every request itself, with its arguments (wrk/flood.lua). */
  script?: { name: string; args: readonly string[] };
}

export interface WrkOptions {
  threads: number;
  connections: number;
  seconds: number;
  log?: string;
  /** Words put before wrk's command line (ClientPriority.prefix). */
  prefix: readonly string[];
}

/**
 * How wrk is scheduled. It shares the machine's cores with the servers it loads, where a client of the real
 * service has a machine of its own. As any process it waits for a core behind the servers, and a response
 * that arrives meanwhile is read late: its latency then counts wrk's own wait, and wrk's correction for
 * coordinated omission counts that wait many times over. So wrk runs at nice -10 in a session of its own:
 * under autogroup scheduling (kernel.sched_autogroup_enabled) a nice value weighs only inside its session,
 * so the session's autogroup gets nice -10 too. It still takes its CPU from the same cores, and the servers'
 * own waits stay in every latency. Raising a priority needs root or CAP_SYS_NICE; without it wrk runs as any
 * process and the report says so. Raw uWS and the stack are always loaded the same way.
 */
export interface ClientPriority {
  prefix: readonly string[];
  says: string;
}

const PROMPT_PREFIX = [
  'setsid', 'sh', '-c', '{ [ ! -e /proc/self/autogroup ] || echo -10 > /proc/self/autogroup; } && exec nice -n -10 "$@"', 'wrk-prompt',
];

/** The prompt prefix where it takes effect here (checked by running `nice` under it), else none. */
export function clientPriority(): ClientPriority {
  const check = spawnSync(PROMPT_PREFIX[0], [...PROMPT_PREFIX.slice(1), 'sh', '-c', 'test "$(nice)" -eq -10'], { encoding: 'utf8' });
  if (check.status === 0) return { prefix: PROMPT_PREFIX, says: 'nice -10, in a session of its own whose autogroup is at nice -10' };
  return { prefix: [], says: 'the priority of any process (raising it needs root or CAP_SYS_NICE): its latencies include its own waits for a core' };
}

const LUA_DIR = path.join(import.meta.dirname, 'wrk');

interface WrkJson {
  requests: number;
  durationUs: number;
  errors: { connect: number; read: number; write: number; status: number; timeout: number };
  latencyUs: { p50: number; p99: number; max: number };
}

export async function runWrk(target: WrkTarget, options: WrkOptions): Promise<WrkResult> {
  if (!target.base.startsWith('http://127.0.0.1:')) throw new Error(`the bench only loads 127.0.0.1, not ${target.base}`);
  const common = ['-t', String(options.threads), '-c', String(options.connections), '-d', `${options.seconds}s`, '--timeout', '10s', '--latency'];
  const args = target.script
    ? [...common, '-s', path.join(LUA_DIR, target.script.name), `${target.base}/`, '--', ...target.script.args]
    : target.pathsFile
    ? [...common, '-s', path.join(LUA_DIR, 'mix.lua'), `${target.base}/`, '--', target.apiKeys, target.pathsFile, String(options.threads), String(target.offset ?? 0)]
    : target.keysFile
      ? [...common, '-s', path.join(LUA_DIR, 'keys.lua'), `${target.base}${target.path ?? '/'}`, '--', target.keysFile, String(options.threads)]
      : [...common, '-s', path.join(LUA_DIR, 'fixed.lua'), `${target.base}${target.path ?? '/'}`, '--', target.apiKeys];
  const [command, ...argv] = [...options.prefix, 'wrk', ...args];
  const { code, stdout, stderr } = await runAsync(command, argv, { env: { ...process.env, BENCH_LUA_DIR: LUA_DIR }, log: options.log });
  const line = stdout.split('\n').find((l) => l.startsWith('BENCH_JSON '));
  if (code !== 0 || !line) throw new Error(`wrk failed (exit ${code}):\n${stdout}\n${stderr}`);
  const json = JSON.parse(line.slice('BENCH_JSON '.length)) as WrkJson;
  const non2xx = /Non-2xx or 3xx responses:\s*(\d+)/.exec(stdout);
  const seconds = json.durationUs / 1e6;
  const e = json.errors;
  return {
    requests: json.requests,
    seconds,
    rps: json.requests / seconds,
    p50Ms: json.latencyUs.p50 / 1000,
    p99Ms: json.latencyUs.p99 / 1000,
    maxMs: json.latencyUs.max / 1000,
    non2xx: non2xx ? Number(non2xx[1]) : e.status,
    socketErrors: e.connect + e.read + e.write + e.timeout,
  };
}
