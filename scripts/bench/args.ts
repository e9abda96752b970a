// Command-line options of `npm run bench`, with their defaults; `--help` lists them.
import os from 'node:os';
import { parseArgs } from 'node:util';

/**
 * How wrk is scheduled next to the stack it loads on the same two cores (clients of the real service run on
 * other machines and take none of its cores). `check`, run under the prefix, exits 0 only when the class
 * took effect (raising a priority needs root or CAP_SYS_NICE).
 */
export interface LoadClassSpec {
  prefix: readonly string[];
  check?: readonly string[];
  says: string;
}

export const LOAD_CLASSES = {
  normal: { prefix: [], says: 'as any process: its latencies include its own waits for a core behind the server processes' },
  batch: { prefix: ['chrt', '-b', '0'], says: 'SCHED_BATCH: the same fair share of the cores, but its wake-ups do not preempt a server process' },
  // A client on a machine of its own reads a response when it arrives. wrk as any process here waits for a
  // core behind the servers it loads, and at 100k req/s those waits, not the servers', made the lookups' p99
  // (scripts/bench/notes.md, session 18). Under autogroup scheduling (kernel.sched_autogroup_enabled, on by
  // default) a nice value only weighs against the processes of its own session, so wrk gets a session of its
  // own and that session's group the same nice (where the kernel has autogroups). The servers' own waits for
  // a core stay in every latency.
  prompt: {
    prefix: ['setsid', 'sh', '-c', '{ [ ! -e /proc/self/autogroup ] || echo -10 > /proc/self/autogroup; } && exec nice -n -10 "$@"', 'wrk-prompt'],
    check: ['sh', '-c', 'test "$(nice)" -eq -10'],
    says: 'nice -10, in a session whose autogroup is at nice -10: it runs when a response wakes it, so its latencies leave out most of its own waits for a core',
  },
} satisfies Record<string, LoadClassSpec>;
export type LoadClass = keyof typeof LOAD_CLASSES;

export interface BenchOptions {
  quick: boolean;
  /** Seconds per wrk run. */
  durationSeconds: number;
  /** Alternating raw/stack pairs per endpoint (the median is reported). */
  runs: number;
  connections: number;
  threads: number;
  loadClass: LoadClass;
  /** Whether --load-class was given: the default alone falls back to normal where it cannot take effect. */
  loadClassGiven: boolean;
  apiWorkers: number;
  /** Distinct search queries in the mix (at least 2,000). */
  queries: number;
  /** Entry counts of the synthetic corpora for build scaling. */
  scalingSizes: number[];
  skipHttp: boolean;
  skipScaling: boolean;
  /** Endpoint to profile with --cpu-prof in an extra pass (none when undefined). */
  profile: string | undefined;
  /** Where BENCHMARKS.md is written. */
  report: string;
  keepTmp: boolean;
  corpora: string | undefined;
  /** Only these endpoints (scenario ids); all when undefined. */
  endpoints: string[] | undefined;
  /** A variant of the stack to measure against production (see scripts/bench/experiment.config.cjs). */
  experiment: string | undefined;
  /** Only re-render the report from this results file (after editing scripts/bench/notes.md). */
  render: string | undefined;
  /** Accept-Encoding sent with every request (none when undefined): what compression costs the stack. */
  acceptEncoding: string | undefined;
}

export const DEFAULT_DURATION_SECONDS = 10;
export const QUICK_DURATION_SECONDS = 5;
export const DEFAULT_RUNS = 3;
export const DEFAULT_CONNECTIONS = 64;
export const DEFAULT_THREADS = 2;
export const DEFAULT_LOAD_CLASS: LoadClass = 'prompt';
export const DEFAULT_API_WORKERS = 2;
/** Well above the worker's search cache, so that the mix measures search, not the cache. */
export const DEFAULT_QUERIES = 20_000;
export const MIN_QUERIES = 2_000;
export const FULL_SCALING_SIZES = [10_000, 100_000, 1_000_000];
export const QUICK_SCALING_SIZES = [10_000, 100_000];

const HELP = `npm run bench [-- options]
  --quick               shorter run: 5 s per wrk run, build scaling without the 1M corpus
  --duration <s>        seconds per wrk run (default ${DEFAULT_DURATION_SECONDS})
  --runs <n>            alternating raw/stack runs per endpoint (default ${DEFAULT_RUNS})
  --connections <n>     wrk connections (default ${DEFAULT_CONNECTIONS})
  --threads <n>         wrk threads (default ${DEFAULT_THREADS})
  --load-class <c>      how wrk is scheduled: prompt (nice -10, root only), normal, or batch
                        (SCHED_BATCH, chrt -b 0) (default ${DEFAULT_LOAD_CLASS}; normal where it cannot be applied)
  --workers <n>         API workers, API_WORKERS (default ${DEFAULT_API_WORKERS})
  --queries <n>         distinct queries in the search mix (default ${DEFAULT_QUERIES}, at least ${MIN_QUERIES})
  --sizes <a,b,c>       synthetic corpus sizes for build scaling (default ${FULL_SCALING_SIZES.join(',')})
  --skip-http           only the bare-loop search and build scaling
  --skip-scaling        only the HTTP figures and the bare-loop search
  --profile <endpoint>  afterwards, load <endpoint> once more with the workers under --cpu-prof and list
                        the hottest functions (endpoints: search-mix, search-repeat, entry-id, entry-slug,
                        word-of-the-day, languages, stats)
  --endpoints <a,b>     only these endpoints (same names as --profile)
  --experiment <name>   run the stack through scripts/bench/experiment.config.cjs with BENCH_EXPERIMENT=<name>
                        (a variant to compare with production, e.g. no-request-logs); the report says so
  --accept-encoding <v> send Accept-Encoding: <v> (e.g. gzip, or "gzip, deflate, br") with every request,
                        to both servers, so that the stack compresses what it compresses for browsers
  --report <file>       where to write the report (default BENCHMARKS.md)
  --render <json>       measure nothing: rewrite the report from a bench-out/results-*.json (e.g. after
                        editing scripts/bench/notes.md)
  --corpora <dir>       corpora for the real snapshot (default: the build's own default)
  --keep-tmp            keep the temporary directory (snapshots, logs, profiles)`;

function loadClass(value: string | undefined): LoadClass {
  if (value === undefined) return DEFAULT_LOAD_CLASS;
  if (!Object.hasOwn(LOAD_CLASSES, value)) {
    throw new Error(`--load-class must be one of ${Object.keys(LOAD_CLASSES).join(', ')} (got ${value})`);
  }
  return value as LoadClass;
}

export function parseBenchArgs(argv: readonly string[]): BenchOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      quick: { type: 'boolean', default: false },
      duration: { type: 'string' },
      runs: { type: 'string' },
      connections: { type: 'string' },
      threads: { type: 'string' },
      workers: { type: 'string' },
      'load-class': { type: 'string' },
      queries: { type: 'string' },
      sizes: { type: 'string' },
      'skip-http': { type: 'boolean', default: false },
      'skip-scaling': { type: 'boolean', default: false },
      profile: { type: 'string' },
      report: { type: 'string', default: 'BENCHMARKS.md' },
      'keep-tmp': { type: 'boolean', default: false },
      corpora: { type: 'string' },
      endpoints: { type: 'string' },
      experiment: { type: 'string' },
      render: { type: 'string' },
      'accept-encoding': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(HELP);
    process.exit(0);
  }
  const int = (name: string, value: string | undefined, fallback: number, min: number): number => {
    if (value === undefined) return fallback;
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer >= ${min} (got ${value})`);
    return n;
  };
  const quick = values.quick ?? false;
  const sizes = values.sizes
    ? values.sizes.split(',').map((s) => int('sizes', s.trim(), 0, 100))
    : quick
      ? QUICK_SCALING_SIZES
      : FULL_SCALING_SIZES;
  return {
    quick,
    durationSeconds: int('duration', values.duration, quick ? QUICK_DURATION_SECONDS : DEFAULT_DURATION_SECONDS, 1),
    runs: int('runs', values.runs, DEFAULT_RUNS, 1),
    connections: int('connections', values.connections, DEFAULT_CONNECTIONS, 1),
    threads: int('threads', values.threads, Math.min(DEFAULT_THREADS, os.availableParallelism()), 1),
    loadClass: loadClass(values['load-class']),
    loadClassGiven: values['load-class'] !== undefined,
    apiWorkers: int('workers', values.workers, DEFAULT_API_WORKERS, 1),
    queries: int('queries', values.queries, DEFAULT_QUERIES, MIN_QUERIES),
    scalingSizes: sizes,
    skipHttp: values['skip-http'] ?? false,
    skipScaling: values['skip-scaling'] ?? false,
    profile: values.profile,
    report: values.report ?? 'BENCHMARKS.md',
    keepTmp: values['keep-tmp'] ?? false,
    corpora: values.corpora,
    endpoints: values.endpoints?.split(',').map((e) => e.trim()).filter(Boolean),
    experiment: values.experiment,
    render: values.render,
    acceptEncoding: values['accept-encoding'],
  };
}
