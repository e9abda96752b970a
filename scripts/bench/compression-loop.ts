// The compression loop: pages of the search mix rendered as the API renders them (the reader's search and the
// page envelope) on a fresh reader, then compressed at each setting of services/api/http/compression.ts, one
// setting after another in one process: what compressing a page costs against making it. Prints JSON.
//   node --import tsx scripts/bench/compression-loop.ts --root <tree> --snapshot <file> --queries <mix.json> --seconds <s>
import fs from 'node:fs';
import { parseArgs } from 'node:util';

import type { MixQuery } from './query-mix.ts';
import { toSearchQuery } from './query-mix.ts';
import { subjectModule } from './subject-module.ts';

type Reader = typeof import('../../snapshot/reader/reader.ts');
type Compression = typeof import('../../services/api/http/compression.ts');

/** One way of sending the pages: as they are, or a coding at an effort of compression.ts. */
export interface CompressionMode {
  label: string;
  coding?: 'br' | 'gzip';
  effort?: 'once' | 'perRequest' | 'kept';
}

export interface CompressionRun extends CompressionMode {
  /** Pages compressed (passes over the rendered pages) in `seconds`. */
  pages: number;
  seconds: number;
  /** Time per page spent compressing (0 as they are). */
  microsPerPage: number;
  /** Bytes sent over the pages' identity bytes (pages under the 1 KB threshold go as they are). */
  ratio: number;
}

export interface CompressionResult {
  /** Pages rendered from the mix, each once, on a fresh reader (a first sighting, as a page sent once is). */
  pages: number;
  meanBytes: number;
  /** The reader's search and the page's rendering, per page. */
  renderMicros: number;
  runs: CompressionRun[];
}

export const COMPRESSION_MODES: readonly CompressionMode[] = [
  { label: 'brotli 2 (once: a page no cache keeps)', coding: 'br', effort: 'once' },
  { label: 'gzip 1 (once, for a client without brotli)', coding: 'gzip', effort: 'once' },
  { label: 'brotli 4 (website pages)', coding: 'br', effort: 'perRequest' },
  { label: 'brotli 5 (kept bodies, once each)', coding: 'br', effort: 'kept' },
  { label: 'gzip 9 (kept bodies, once each)', coding: 'gzip', effort: 'kept' },
];

/** Pages rendered from the start of the mix: enough to cover its kinds, few enough to hold in memory. */
const PAGES = 2000;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { root: { type: 'string' }, snapshot: { type: 'string' }, queries: { type: 'string' }, seconds: { type: 'string', default: '5' } } });
  if (!values.root || !values.snapshot || !values.queries) throw new Error('--root, --snapshot and --queries are required');
  const reader = await subjectModule<Reader>(values.root, 'snapshot/reader/reader.ts');
  const compression = await subjectModule<Compression>(values.root, 'services/api/http/compression.ts');
  const snapshot = reader.openSnapshot(values.snapshot);
  const queries = (JSON.parse(fs.readFileSync(values.queries, 'utf8')) as MixQuery[]).slice(0, PAGES).map((q) => toSearchQuery(q.path));
  const scratch = Buffer.alloc(1 << 20);
  const bodies: Buffer[] = [];
  const renderStart = process.hrtime.bigint();
  try {
    for (const query of queries) {
      // The body as the API sends it: the envelope around the summaries' stored bytes.
      const page = snapshot.search(query);
      scratch.write('{"data":[', 0, 'latin1');
      const at = page.writeItems(scratch, 9);
      const end = at + scratch.write(`],"total":${page.total},"page":${query.page},"perPage":${query.limit},"hasMore":false}`, at, 'latin1');
      bodies.push(Buffer.from(scratch.subarray(0, end)));
    }
  } finally {
    snapshot.close();
  }
  const renderMicros = Number(process.hrtime.bigint() - renderStart) / 1e3 / bodies.length;
  const identity = bodies.reduce((n, b) => n + b.length, 0);
  const runs: CompressionRun[] = [];
  for (const mode of COMPRESSION_MODES) {
    const send = (body: Buffer): number => (mode.coding === undefined || mode.effort === undefined || body.length < compression.COMPRESS_MIN_BYTES ? body.length : compression.compress(body, mode.coding, mode.effort).length);
    for (const body of bodies.slice(0, 100)) send(body);
    let pages = 0;
    let sent = 0;
    let sentPass = 0;
    const budget = BigInt(Math.round(Number(values.seconds) * 1e9));
    const start = process.hrtime.bigint();
    let now = start;
    while (now - start < budget) {
      sent = 0;
      for (const body of bodies) sent += send(body);
      pages += bodies.length;
      sentPass = sent;
      now = process.hrtime.bigint();
    }
    const seconds = Number(now - start) / 1e9;
    runs.push({ ...mode, pages, seconds, microsPerPage: (seconds * 1e6) / pages, ratio: sentPass / identity });
  }
  const result: CompressionResult = { pages: bodies.length, meanBytes: identity / bodies.length, renderMicros, runs };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

await main();
