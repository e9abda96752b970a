// What compressing a search page would cost against what making it costs: over the bench's query mix, µs per
// search page (the reader's search and the page's JSON, as the API makes it for a first sighting) and µs per
// page compressed at the levels the server uses. Alone:
//   node --import tsx scripts/bench/compression.ts --snapshot .tmp/test-snapshot.sqlite [--queries 500]
// Prints one line per measure and the JSON.
import { parseArgs } from 'node:util';

import { compress } from '../../services/api/http/compression.ts';
import type { ContentCoding, Effort } from '../../services/api/http/compression.ts';
import { openSnapshot } from '../../services/api/snapshot/reader.ts';
import { buildQueryMix, sampleEntries, toSearchQuery } from './query-mix.ts';
import { median } from './stats.ts';

const PASSES = 3;

export interface CompressionCost {
  pages: number;
  /** Median bytes of a page as it is, and of each coding and effort. */
  bytes: Record<string, number>;
  /** µs per page: making it (search and JSON), and compressing it, medians over the passes. */
  usPerPage: Record<string, number>;
}

export function measureCompression(snapshotPath: string, queries: number): CompressionCost {
  const snapshot = openSnapshot(snapshotPath, { rankedCache: false });
  try {
    const mix = buildQueryMix(sampleEntries(snapshot, 40), queries).map((q) => toSearchQuery(q.path));
    const scratch = Buffer.alloc(1 << 20);
    const render = (i: number): Buffer => {
      const page = snapshot.search(mix[i]);
      scratch.write('{"data":[', 0, 'latin1');
      const at = page.writeItems(scratch, 9);
      const tail = `],"total":${page.total}}`;
      scratch.write(tail, at, 'latin1');
      return Buffer.from(scratch.subarray(0, at + tail.length));
    };
    const bodies = mix.map((_, i) => render(i));
    const timings: Record<string, number[]> = { make: [] };
    const variants: Array<[ContentCoding, Effort]> = [['gzip', 'perRequest'], ['br', 'perRequest'], ['gzip', 'kept'], ['br', 'kept']];
    for (let pass = 0; pass < PASSES; pass++) {
      let started = process.hrtime.bigint();
      for (let i = 0; i < mix.length; i++) render(i);
      timings.make.push(Number(process.hrtime.bigint() - started) / 1000 / mix.length);
      for (const [coding, effort] of variants) {
        const name = `${coding} ${effort}`;
        started = process.hrtime.bigint();
        for (const body of bodies) compress(body, coding, effort);
        (timings[name] ??= []).push(Number(process.hrtime.bigint() - started) / 1000 / bodies.length);
      }
    }
    const bytes: Record<string, number> = { identity: median(bodies.map((b) => b.length)) };
    for (const [coding, effort] of variants) bytes[`${coding} ${effort}`] = median(bodies.map((b) => compress(b, coding, effort).length));
    const usPerPage = Object.fromEntries(Object.entries(timings).map(([k, v]) => [k, Math.round(median(v) * 10) / 10]));
    return { pages: bodies.length, bytes, usPerPage };
  } finally {
    snapshot.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { snapshot: { type: 'string' }, queries: { type: 'string', default: '500' } } });
  if (!values.snapshot) throw new Error('--snapshot <file> is required');
  const cost = measureCompression(values.snapshot, Number(values.queries));
  console.log(`${cost.pages} search pages of the bench's mix, medians over ${PASSES} passes:`);
  console.log(`  make a page (search and JSON): ${cost.usPerPage.make} µs, ${cost.bytes.identity} bytes`);
  for (const name of Object.keys(cost.usPerPage).filter((k) => k !== 'make')) {
    console.log(`  ${name.padEnd(16)} ${String(cost.usPerPage[name]).padStart(7)} µs (${(cost.usPerPage[name] / cost.usPerPage.make).toFixed(2)}x making it), ${cost.bytes[name]} bytes`);
  }
  console.log(JSON.stringify(cost));
}
