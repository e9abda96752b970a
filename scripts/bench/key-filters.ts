// What the key filters buy the reader: passes over the bench's mix with them and without, alternating in one
// process, on readers without the ranked-list cache so that every search is ranked anew, as a first sighting
// of a query is over HTTP. Run by npm run bench on its snapshot and mix; alone:
//   node --import tsx scripts/bench/key-filters.ts --snapshot <file> --queries <mix.json>
// Prints JSON.
import fs from 'node:fs';
import { parseArgs } from 'node:util';

import { openSnapshot } from '../../services/api/snapshot/reader.ts';
import type { MixQuery } from './query-mix.ts';
import { toSearchQuery } from './query-mix.ts';

export interface KeyFilterTiming {
  variant: string;
  /** Median over the passes of µs per search, and the fastest and slowest pass. */
  usPerSearch: number;
  minUs: number;
  maxUs: number;
  /** ms to open the snapshot (the filters are built then). */
  openMs: number;
  passes: number;
}

const PASSES = 8;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
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
  for (const v of variants) v.snapshot.close();
  const rows: KeyFilterTiming[] = variants.map((v) => ({
    variant: v.variant,
    usPerSearch: median(v.us),
    minUs: Math.min(...v.us),
    maxUs: Math.max(...v.us),
    openMs: v.openMs,
    passes: PASSES,
  }));
  process.stdout.write(`${JSON.stringify({ rows })}\n`);
}

main();
