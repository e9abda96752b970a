// What the key filters buy the reader: passes over the bench's mix with them and without, alternating in one
// process, on readers without the ranked-list cache so that every search is ranked anew, as a first sighting
// of a query is over HTTP. Run by npm run bench on its snapshot and mix; alone:
//   node --import tsx scripts/bench/key-filters.ts --snapshot <file> --queries <mix.json>
// Prints JSON.
import fs from 'node:fs';
import { parseArgs } from 'node:util';

import Database from 'better-sqlite3';

import { openSnapshot } from '../../services/api/snapshot/reader.ts';
import type { Snapshot } from '../../services/api/snapshot/snapshot.ts';
import type { MixQuery } from './query-mix.ts';
import { toSearchQuery } from './query-mix.ts';
import { median } from './stats.ts';

export interface KeyFilterTiming {
  variant: string;
  /** Median over the passes of µs per search, and the fastest and slowest pass. */
  usPerSearch: number;
  minUs: number;
  maxUs: number;
  /** ms to open the snapshot (the stored filters are read then). */
  openMs: number;
  passes: number;
  /** Per search, over one untimed pass: the statements run, and those that found nothing (absent before session 15's counts). */
  statementsPerSearch?: number;
  emptyPerSearch?: number;
}

const PASSES = 8;

/**
 * Statements a pass over `queries` runs and how many return no row. Search reads rows with `all()` only (the
 * `forms` lookups and the MATCH statements), so the count wraps that method of better-sqlite3's Statement for
 * the pass; the timed passes run unwrapped.
 */
function countStatements(snapshot: Snapshot, queries: readonly ReturnType<typeof toSearchQuery>[]): { statements: number; empty: number } {
  const scratch = new Database(':memory:');
  const proto = Object.getPrototypeOf(scratch.prepare('SELECT 1')) as { all: (...args: unknown[]) => unknown[] };
  scratch.close();
  const all = proto.all;
  const counts = { statements: 0, empty: 0 };
  proto.all = function (this: unknown, ...args: unknown[]) {
    const rows = all.apply(this, args);
    counts.statements++;
    if (rows.length === 0) counts.empty++;
    return rows;
  };
  try {
    for (const query of queries) snapshot.search(query);
  } finally {
    proto.all = all;
  }
  return counts;
}

function main(): void {
  const { values } = parseArgs({ options: { snapshot: { type: 'string' }, queries: { type: 'string' } } });
  if (!values.snapshot || !values.queries) throw new Error('--snapshot and --queries are required');
  const queries = (JSON.parse(fs.readFileSync(values.queries, 'utf8')) as MixQuery[]).map((q) => toSearchQuery(q.path));
  const variants = [true, false].map((keyFilters) => {
    const opened = performance.now();
    const snapshot = openSnapshot(values.snapshot!, { keyFilters, rankedCache: false });
    return { variant: keyFilters ? 'with key filters' : 'without', snapshot, openMs: performance.now() - opened, us: [] as number[] };
  });
  for (let pass = 0; pass < PASSES; pass++) {
    // Alternating which goes first, so that a drift of the machine's speed falls on both.
    for (const v of pass % 2 === 0 ? variants : [...variants].reverse()) {
      const start = performance.now();
      for (const query of queries) v.snapshot.search(query);
      v.us.push(((performance.now() - start) * 1000) / queries.length);
    }
  }
  const counted = variants.map((v) => countStatements(v.snapshot, queries));
  for (const v of variants) v.snapshot.close();
  const rows: KeyFilterTiming[] = variants.map((v, i) => ({
    variant: v.variant,
    usPerSearch: median(v.us),
    minUs: Math.min(...v.us),
    maxUs: Math.max(...v.us),
    openMs: v.openMs,
    passes: PASSES,
    statementsPerSearch: counted[i].statements / queries.length,
    emptyPerSearch: counted[i].empty / queries.length,
  }));
  process.stdout.write(`${JSON.stringify({ rows })}\n`);
}

main();
