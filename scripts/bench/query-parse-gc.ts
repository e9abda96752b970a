// Why query text is read into values before zod (services/api/http/query-schemas.ts) rather than with
// z.preprocess: the search mix's query strings parsed both ways, with V8's young generation sized as in the
// API workers (ecosystem.config.cjs), counting what the garbage collector did (v8.GCProfiler). Run by
// npm run bench on its mix; alone:
//   node --import tsx --max-semi-space-size=4 scripts/bench/query-parse-gc.ts --queries <mix.json>
// Prints JSON.
import fs from 'node:fs';
import { parse as parseQueryString } from 'node:querystring';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';

import { z } from 'zod';

import { queryParser } from '../../services/api/http/query-schemas.ts';
import { parseInput } from '../../services/api/http/validate.ts';
import { LIMIT_DEFAULT, LIMIT_MAX, PAGE_MAX, wordsSearchQuerySchema } from '../../services/api/routes/words.search.ts';
import type { MixQuery } from './query-mix.ts';

export interface ParseGcRow {
  variant: string;
  parses: number;
  usPerParse: number;
  /** Young-generation collections per 10,000 parses, and their summed pause. */
  scavengesPer10k: number;
  scavengeMsPer10k: number;
  /** Bytes moved to the old generation by those collections, per parse (garbage that a full collection must find). */
  promotedBytesPerParse: number;
  /** Full (mark-compact) collections per 10,000 parses. */
  fullGcsPer10k: number;
}

const SECONDS_PER_VARIANT = 2;

/** The search schema as it was written before: each parameter's text read by a z.preprocess step. */
function preprocessedSearchSchema() {
  const optional = <T extends z.ZodTypeAny>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());
  const int = (min: number, max: number, fallback: number) =>
    z.preprocess((v) => (typeof v === 'string' && /^-?[0-9]+$/.test(v) ? Number(v) : v), z.number().int().min(min).max(max)).default(fallback);
  const shape = wordsSearchQuerySchema.shape;
  return z.object({
    q: optional(shape.q.unwrap()),
    language: optional(shape.language.unwrap()),
    partOfSpeech: optional(shape.partOfSpeech.unwrap()),
    page: int(1, PAGE_MAX, 1),
    limit: int(1, LIMIT_MAX, LIMIT_DEFAULT),
  });
}

interface GcStatistic {
  gcType: string;
  cost: number;
  beforeGC: { heapSpaceStatistics: { spaceName: string; spaceUsedSize: number }[] };
  afterGC: { heapSpaceStatistics: { spaceName: string; spaceUsedSize: number }[] };
}

function measure(variant: string, queries: readonly string[], parse: (parameters: Record<string, unknown>) => unknown): ParseGcRow {
  for (let i = 0; i < 20_000; i++) parse(parseQueryString(queries[i % queries.length]));
  const profiler = new v8.GCProfiler();
  profiler.start();
  const start = process.hrtime.bigint();
  const deadline = start + BigInt(SECONDS_PER_VARIANT * 1e9);
  let parses = 0;
  while (process.hrtime.bigint() < deadline) {
    for (let i = 0; i < 1_000; i++, parses++) parse(parseQueryString(queries[parses % queries.length]));
  }
  const elapsedUs = Number(process.hrtime.bigint() - start) / 1e3;
  const statistics = (profiler.stop() as unknown as { statistics: GcStatistic[] }).statistics;
  const used = (s: GcStatistic['afterGC']) => s.heapSpaceStatistics.find((x) => x.spaceName === 'old_space')?.spaceUsedSize ?? 0;
  const scavenges = statistics.filter((s) => s.gcType === 'Scavenge');
  const promoted = scavenges.reduce((sum, s) => sum + Math.max(0, used(s.afterGC) - used(s.beforeGC)), 0);
  const per10k = 10_000 / parses;
  return {
    variant,
    parses,
    usPerParse: elapsedUs / parses,
    scavengesPer10k: scavenges.length * per10k,
    scavengeMsPer10k: (scavenges.reduce((sum, s) => sum + s.cost, 0) / 1e3) * per10k,
    promotedBytesPerParse: promoted / parses,
    fullGcsPer10k: statistics.filter((s) => s.gcType === 'MarkSweepCompact').length * per10k,
  };
}

function main(): void {
  const { values } = parseArgs({ options: { queries: { type: 'string' } } });
  if (!values.queries) throw new Error('--queries is required (a JSON list of {path}, as npm run bench writes)');
  const mix = JSON.parse(fs.readFileSync(values.queries, 'utf8')) as MixQuery[];
  const queries = mix.map((q) => q.path.slice(q.path.indexOf('?') + 1));
  const preprocessed = preprocessedSearchSchema();
  const production = queryParser(wordsSearchQuerySchema);
  // Both read every query of the mix to the same values, so the comparison is of cost alone.
  for (const query of queries) {
    const before = JSON.stringify(parseInput(preprocessed, parseQueryString(query), 'query'));
    const now = JSON.stringify(production(parseQueryString(query)));
    if (before !== now) throw new Error(`the two parsers disagree on ${query}: ${before} / ${now}`);
  }
  const rows = [
    measure('z.preprocess per parameter (before)', queries, (p) => parseInput(preprocessed, p, 'query')),
    measure('text read before zod (queryParser, production)', queries, production),
  ];
  process.stdout.write(`${JSON.stringify({ rows })}\n`);
}

main();
