// The bare-loop search baseline: one process running the reader's search over a query list as fast as it can,
// no HTTP, metering or JSON around it. Also times worst-case queries one by one, uncached. Prints JSON.
import fs from 'node:fs';
import { parseArgs } from 'node:util';

import { openSnapshot } from '../../services/api/snapshot/reader.ts';
import type { SearchQuery, Snapshot } from '../../services/api/snapshot/snapshot.ts';
import type { MixQuery } from './query-mix.ts';
import { toSearchQuery } from './query-mix.ts';
import { percentile, sortedFloat64 } from './stats.ts';

export interface LoopResult {
  queries: number;
  seconds: number;
  executed: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Full passes over the list (no query repeats within one). */
  cycles: number;
  /** Searches that threw (they would be 500s over HTTP), with a few examples. */
  failed: number;
  failures: string[];
  /** Latency per kind of query, and the slowest queries seen. */
  byKind: Record<string, { count: number; p50Ms: number; p99Ms: number }>;
  slowest: { path: string; ms: number }[];
}

export interface EachResult {
  label: string;
  path: string;
  total: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Set when the search threw. */
  error?: string;
}

const WARMUP_MS = 1000;
const FAILURE_EXAMPLES = 10;
/** Searches slower than this are listed (the slowest few), to say which queries make the tail. */
const SLOW_MS = 5;
const SLOWEST_SHOWN = 12;

/** Searches, counting a throw as a failure instead of stopping the bench (it is a finding to report). */
function trySearch(snapshot: Snapshot, query: SearchQuery, failures: Map<string, string>, path: string): number {
  try {
    return snapshot.search(query).total;
  } catch (err) {
    if (!failures.has(path)) failures.set(path, (err as Error).message);
    return -1;
  }
}

function main(): void {
  const { values } = parseArgs({
    options: {
      snapshot: { type: 'string' },
      queries: { type: 'string' },
      seconds: { type: 'string', default: '10' },
      each: { type: 'string' },
      reps: { type: 'string', default: '15' },
    },
  });
  if (!values.snapshot) throw new Error('--snapshot is required');
  const snapshot = openSnapshot(values.snapshot);
  const out: { loop?: LoopResult; each?: EachResult[] } = {};

  if (values.queries) {
    const mixList = JSON.parse(fs.readFileSync(values.queries, 'utf8')) as MixQuery[];
    const paths = mixList.map((q) => q.path);
    const kindTimes = new Map<string, number[]>();
    const slow: { path: string; ms: number }[] = [];
    const list = paths.map(toSearchQuery);
    const failures = new Map<string, string>();
    let failed = 0;
    // Warm up the JIT and the page cache from the end of the list, which the timed loop reaches last.
    const warmEnd = Date.now() + WARMUP_MS;
    for (let i = list.length - 1; Date.now() < warmEnd; i = (i - 1 + list.length) % list.length) trySearch(snapshot, list[i], failures, paths[i]);
    const times: number[] = [];
    const budgetNs = BigInt(Math.round(Number(values.seconds) * 1e9));
    const start = process.hrtime.bigint();
    let now = start;
    let i = 0;
    while (now - start < budgetNs) {
      const t0 = now;
      if (trySearch(snapshot, list[i], failures, paths[i]) < 0) failed++;
      now = process.hrtime.bigint();
      const ms = Number(now - t0) / 1e6;
      times.push(ms);
      const kind = mixList[i].kind;
      let k = kindTimes.get(kind);
      if (!k) kindTimes.set(kind, (k = []));
      k.push(ms);
      if (ms >= SLOW_MS) slow.push({ path: decodeURIComponent(paths[i]), ms });
      i = (i + 1) % list.length;
    }
    const seconds = Number(now - start) / 1e9;
    const sorted = sortedFloat64(times);
    out.loop = {
      queries: list.length,
      seconds,
      executed: times.length,
      perSecond: times.length / seconds,
      p50Ms: percentile(sorted, 50),
      p99Ms: percentile(sorted, 99),
      maxMs: sorted[sorted.length - 1],
      cycles: times.length / list.length,
      failed,
      failures: [...failures].slice(0, FAILURE_EXAMPLES).map(([path, message]) => `${decodeURIComponent(path)}: ${message}`),
      byKind: Object.fromEntries([...kindTimes].map(([kind, t]) => {
        const st = sortedFloat64(t);
        return [kind, { count: t.length, p50Ms: percentile(st, 50), p99Ms: percentile(st, 99) }];
      })),
      slowest: slow.sort((a, b) => b.ms - a.ms).slice(0, SLOWEST_SHOWN),
    };
  }

  if (values.each) {
    const reps = Number(values.reps);
    out.each = [];
    // No ranked-list cache: it would answer every repetition after the first. (A fresh reader per repetition
    // did the same until session 15, when opening one came to build the key filters, seconds at 1M entries.)
    const uncached = openSnapshot(values.snapshot, { rankedCache: false });
    trySearch(uncached, { q: 'zzqxj', page: 1, limit: 1 }, new Map(), 'warm-up');
    for (const query of JSON.parse(fs.readFileSync(values.each, 'utf8')) as MixQuery[]) {
      const search = toSearchQuery(query.path);
      const times: number[] = [];
      let total = 0;
      const failures = new Map<string, string>();
      for (let r = 0; r < reps; r++) {
        const t0 = process.hrtime.bigint();
        total = trySearch(uncached, search, failures, query.path);
        times.push(Number(process.hrtime.bigint() - t0) / 1e6);
      }
      const sorted = sortedFloat64(times);
      out.each.push({
        label: query.label ?? query.path,
        path: query.path,
        total,
        p50Ms: percentile(sorted, 50),
        p99Ms: percentile(sorted, 99),
        maxMs: sorted[sorted.length - 1],
        ...(failures.size ? { error: [...failures.values()][0] } : {}),
      });
    }
    uncached.close();
  }
  snapshot.close();
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

main();
