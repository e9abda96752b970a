// Command-line options of `npm run bench`, with their defaults; `--help` lists them.
import os from 'node:os';
import { parseArgs } from 'node:util';

export interface BenchOptions {
  quick: boolean;
  /** Seconds per wrk run. */
  durationSeconds: number;
  /** Alternating raw/stack pairs per endpoint (the median is reported). */
  runs: number;
  connections: number;
  threads: number;
  apiWorkers: number;
  /** Distinct search queries in the search mix (at least MIN_QUERIES). */
  queries: number;
  /** Entry counts of the synthetic corpora for build scaling. */
  scalingSizes: number[];
  /** Sections to run (section ids); all when undefined. */
  only: string[] | undefined;
  /** HTTP endpoints to load (scenario ids); all when undefined. */
  endpoints: string[] | undefined;
  /** A git ref measured the same way after the working tree, reported side by side. */
  compare: string | undefined;
  /** Measure nothing: write BENCHMARKS.md and the README's table from this results file. */
  render: string | undefined;
  corpora: string | undefined;
  keepTmp: boolean;
}

export const DEFAULT_DURATION_SECONDS = 10;
export const QUICK_DURATION_SECONDS = 3;
export const DEFAULT_RUNS = 3;
export const DEFAULT_CONNECTIONS = 64;
export const DEFAULT_THREADS = 2;
export const DEFAULT_API_WORKERS = 2;
/** Well above the caches of a worker (pages, ranked lists), so that the mix measures search, not the caches. */
export const DEFAULT_QUERIES = 20_000;
export const MIN_QUERIES = 2_000;
export const FULL_SCALING_SIZES = [10_000, 100_000, 1_000_000];
export const QUICK_SCALING_SIZES = [10_000, 100_000];

const HELP = `npm run bench [-- options]
  --quick               a check that it works, in minutes: ${QUICK_DURATION_SECONDS} s per wrk run, build scaling without
                        the 1M corpus; writes bench-out/report.md, not BENCHMARKS.md
  --compare <git-ref>   then measure <git-ref> the same way (a temporary git worktree, its own node_modules and
                        bundles) and report the two side by side in bench-out/compare.md
  --only <a,b>          only these sections (http, search, scaling, metering, many-clients, compression, floods)
  --endpoints <a,b>     only these HTTP endpoints (search-mix, search-repeat, entry-id, entry-slug,
                        word-of-the-day, languages, stats)
  --duration <s>        seconds per wrk run (default ${DEFAULT_DURATION_SECONDS})
  --runs <n>            alternating raw/stack runs per endpoint (default ${DEFAULT_RUNS})
  --connections <n>     wrk connections (default ${DEFAULT_CONNECTIONS})
  --threads <n>         wrk threads (default ${DEFAULT_THREADS})
  --workers <n>         API workers, API_WORKERS (default ${DEFAULT_API_WORKERS})
  --queries <n>         distinct queries in the search mix (default ${DEFAULT_QUERIES}, at least ${MIN_QUERIES})
  --sizes <a,b,c>       synthetic corpus sizes for build scaling (default ${FULL_SCALING_SIZES.join(',')})
  --corpora <dir>       the real corpora (default: the build's own default)
  --render <json>       measure nothing: write BENCHMARKS.md and the README's table from a bench-out/results-*.json
  --keep-tmp            keep the temporary directory (snapshots, logs)

A full run (no --quick, --only, --endpoints or --compare, the 1M corpus among the sizes, the default
connections, workers and queries) writes BENCHMARKS.md and the table between the bench markers in README.md;
any other run writes bench-out/report.md.`;

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
      queries: { type: 'string' },
      sizes: { type: 'string' },
      only: { type: 'string' },
      endpoints: { type: 'string' },
      compare: { type: 'string' },
      render: { type: 'string' },
      corpora: { type: 'string' },
      'keep-tmp': { type: 'boolean', default: false },
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
  const list = (value: string | undefined) => value?.split(',').map((e) => e.trim()).filter(Boolean);
  const quick = values.quick ?? false;
  return {
    quick,
    durationSeconds: int('duration', values.duration, quick ? QUICK_DURATION_SECONDS : DEFAULT_DURATION_SECONDS, 1),
    runs: int('runs', values.runs, DEFAULT_RUNS, 1),
    connections: int('connections', values.connections, DEFAULT_CONNECTIONS, 1),
    threads: int('threads', values.threads, Math.min(DEFAULT_THREADS, os.availableParallelism()), 1),
    apiWorkers: int('workers', values.workers, DEFAULT_API_WORKERS, 1),
    queries: int('queries', values.queries, DEFAULT_QUERIES, MIN_QUERIES),
    scalingSizes: list(values.sizes)?.map((s) => int('sizes', s, 0, 100)) ?? (quick ? QUICK_SCALING_SIZES : FULL_SCALING_SIZES),
    only: list(values.only),
    endpoints: list(values.endpoints),
    compare: values.compare,
    render: values.render,
    corpora: values.corpora,
    keepTmp: values['keep-tmp'] ?? false,
  };
}

/**
 * Whether the run measures everything BENCHMARKS.md and the targets need: every section and endpoint, the 1M
 * corpus, the targets' connections and workers. More runs or longer ones still qualify.
 */
export function isFullRun(o: BenchOptions): boolean {
  return !o.quick && !o.only && !o.endpoints && !o.compare && o.scalingSizes.includes(1_000_000) &&
    o.connections === DEFAULT_CONNECTIONS && o.apiWorkers === DEFAULT_API_WORKERS && o.queries >= DEFAULT_QUERIES;
}
