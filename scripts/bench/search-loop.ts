// The bare loop: one process running a subject's reader over a query list as fast as it can, with no HTTP,
// metering or JSON around it. Given --draw instead of a list, it draws <n> typical queries from the snapshot
// for the loop, and also times worst-case queries one by one, never from a cache, and slips of the keyboard
// (--slips <n> alone times only those). Prints JSON.
//   node --import tsx --expose-gc scripts/bench/search-loop.ts --root <tree> --snapshot <file> --seconds <s>
//     (--queries <mix.json> | --draw <n> | --slips <n>)
import fs from 'node:fs';
import { parseArgs } from 'node:util';

import type { WordSummary } from '../../services/shared/schemas.ts';
import type { SearchQuery, Snapshot } from '../../snapshot/reader/snapshot.ts';
import type { MixQuery } from './query-mix.ts';
import { buildQueryMix, mulberry32, sampleEntries, toSearchQuery, worstQueries } from './query-mix.ts';
import { percentile, sortedFloat64 } from './stats.ts';
import { subjectModule } from './subject-module.ts';

type Reader = typeof import('../../snapshot/reader/reader.ts');

export interface LoopResult {
  queries: number;
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Full passes over the list (no query repeats within one). */
  passes: number;
  /** Searches that threw (over HTTP they are 500s), with a few examples. */
  failed: number;
  failures: string[];
}

export interface EachResult {
  label: string;
  total: number;
  p50Ms: number;
  p99Ms: number;
  /** Set when the search threw. */
  error?: string;
}

/** Slips of the keyboard timed: queries that find few entries, so that each computes its suggestions. */
export interface SlipsResult {
  queries: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Queries that got at least one suggestion. */
  withSuggestions: number;
}

const WARMUP_MS = 1000;
/** Slips timed beside the drawn typical queries. */
const DRAWN_SLIPS = 1000;
const FAILURE_EXAMPLES = 10;
/** Browse pages read per language to draw queries from (spread over the alphabet). */
const SAMPLE_PAGES_PER_LANGUAGE = 40;
const WORST_REPS = 10;
/** Typical queries each worst-case reader runs first. */
const WORST_WARMUP_QUERIES = 200;

/** Searches, counting a throw as a failure instead of stopping the bench (it is a finding to report). */
function trySearch(snapshot: Snapshot, query: SearchQuery, failures: Map<string, string>, path: string): number {
  try {
    return snapshot.search(query).total;
  } catch (err) {
    if (!failures.has(path)) failures.set(path, (err as Error).message);
    return -1;
  }
}

function loop(snapshot: Snapshot, mix: readonly MixQuery[], seconds: number): LoopResult {
  const paths = mix.map((q) => q.path);
  const list = paths.map(toSearchQuery);
  const failures = new Map<string, string>();
  // Warm up the JIT and the page cache from the end of the list, which the timed loop reaches last.
  const warmEnd = Date.now() + WARMUP_MS;
  for (let i = list.length - 1; Date.now() < warmEnd; i = (i - 1 + list.length) % list.length) trySearch(snapshot, list[i], failures, paths[i]);
  failures.clear();
  const times: number[] = [];
  let failed = 0;
  const budgetNs = BigInt(Math.round(seconds * 1e9));
  const start = process.hrtime.bigint();
  let now = start;
  for (let i = 0; now - start < budgetNs; i = (i + 1) % list.length) {
    const t0 = now;
    if (trySearch(snapshot, list[i], failures, paths[i]) < 0) failed++;
    now = process.hrtime.bigint();
    times.push(Number(now - t0) / 1e6);
  }
  const elapsed = Number(now - start) / 1e9;
  const sorted = sortedFloat64(times);
  return {
    queries: list.length,
    seconds: elapsed,
    perSecond: times.length / elapsed,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    maxMs: sorted[sorted.length - 1],
    passes: times.length / list.length,
    failed,
    failures: [...failures].slice(0, FAILURE_EXAMPLES).map(([path, message]) => `${decodeURIComponent(path)}: ${message}`),
  };
}

/**
 * Each query once per repetition, each repetition on a reader of its own, warmed by `warm` (distinct typical
 * queries) as a worker is by its traffic: a reader keeps a ranked list from its key's second search on, so no
 * answer timed here comes from a cache. The garbage of the readers before is collected first (node
 * --expose-gc), so that their collection does not fall into the timings.
 */
function each(reader: Reader, snapshotPath: string, queries: readonly MixQuery[], warm: readonly MixQuery[], reps = WORST_REPS): EachResult[] {
  const times = queries.map((): number[] => []);
  const totals = queries.map(() => 0);
  const failures = queries.map(() => new Map<string, string>());
  for (let r = 0; r < reps; r++) {
    const snapshot = reader.openSnapshot(snapshotPath);
    try {
      for (const q of warm) trySearch(snapshot, toSearchQuery(q.path), new Map(), q.path);
      (globalThis as { gc?: () => void }).gc?.();
      queries.forEach((query, i) => {
        const t0 = process.hrtime.bigint();
        totals[i] = trySearch(snapshot, toSearchQuery(query.path), failures[i], query.path);
        times[i].push(Number(process.hrtime.bigint() - t0) / 1e6);
      });
    } finally {
      snapshot.close();
    }
  }
  return queries.map((query, i) => {
    const sorted = sortedFloat64(times[i]);
    const error = [...failures[i].values()][0];
    return { label: query.label ?? query.path, total: totals[i], p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99), ...(error ? { error } : {}) };
  });
}

/**
 * Headwords of the sample with one letter changed (seeded), each searched once in its language: a first sighting,
 * so no ranked list or suggestion comes from a cache. Timed after a warm-up on other slips.
 */
function slips(snapshot: Snapshot, entries: readonly WordSummary[], count: number): SlipsResult {
  const random = mulberry32(43);
  const words = entries.filter((e) => /^\p{Ll}{3,}$/u.test(e.exactForm.normalize('NFC')));
  const queries: SearchQuery[] = [];
  const seen = new Set<string>();
  for (let tries = 0; queries.length < 2 * count && tries < 20 * count && words.length > 0; tries++) {
    const entry = words[Math.floor(random() * words.length)];
    const letters = [...entry.exactForm.normalize('NFC')];
    letters[Math.floor(random() * letters.length)] = 'abcdefghijklmnopqrstuvwxyz'[Math.floor(random() * 26)];
    const q = letters.join('');
    if (q === entry.exactForm || seen.has(`${entry.language}\u0000${q}`)) continue;
    seen.add(`${entry.language}\u0000${q}`);
    queries.push({ q, language: entry.language, page: 1, limit: 20 });
  }
  const warm = queries.splice(0, queries.length - Math.min(count, Math.floor(queries.length / 2)));
  for (const query of warm) snapshot.search(query);
  (globalThis as { gc?: () => void }).gc?.();
  const times: number[] = [];
  let withSuggestions = 0;
  for (const query of queries) {
    const t0 = process.hrtime.bigint();
    const page = snapshot.search(query);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if ((page.suggestions ?? []).length > 0) withSuggestions++;
  }
  const sorted = sortedFloat64(times);
  return { queries: queries.length, p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99), maxMs: sorted[sorted.length - 1] ?? Number.NaN, withSuggestions };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { root: { type: 'string' }, snapshot: { type: 'string' }, queries: { type: 'string' }, draw: { type: 'string' }, slips: { type: 'string' }, seconds: { type: 'string', default: '10' } },
  });
  if (!values.root || !values.snapshot || !(values.queries || values.draw || values.slips)) throw new Error('--root, --snapshot and --queries, --draw or --slips are required');
  const reader = await subjectModule<Reader>(values.root, 'snapshot/reader/reader.ts');
  const snapshot = reader.openSnapshot(values.snapshot);
  const out: { loop?: LoopResult; each?: EachResult[]; slips?: SlipsResult } = {};
  try {
    if (values.slips) {
      out.slips = slips(snapshot, sampleEntries(snapshot, SAMPLE_PAGES_PER_LANGUAGE), Number(values.slips));
    } else if (values.queries) {
      out.loop = loop(snapshot, JSON.parse(fs.readFileSync(values.queries, 'utf8')) as MixQuery[], Number(values.seconds));
    } else {
      const entries = sampleEntries(snapshot, SAMPLE_PAGES_PER_LANGUAGE);
      const languages = snapshot.languages().filter((l) => l.status === 'active').map((l) => l.code);
      const typical = buildQueryMix(entries, Number(values.draw), 11);
      out.loop = loop(snapshot, typical, Number(values.seconds));
      out.each = each(reader, values.snapshot, worstQueries(entries, languages), typical.slice(0, WORST_WARMUP_QUERIES));
      out.slips = slips(snapshot, entries, DRAWN_SLIPS);
    }
  } finally {
    snapshot.close();
  }
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

await main();
