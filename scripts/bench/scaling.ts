// Build scaling: synthetic corpora of growing size through the real build, timed and measured, then the
// search over each snapshot with typical and worst-case queries.
import fs from 'node:fs';
import path from 'node:path';

import { openSnapshot } from '../../services/api/snapshot/reader.ts';
import { buildQueryMix, sampleEntries, worstQueries } from './query-mix.ts';
import { ROOT, TSX, runAsync, runBenchScript } from './processes.ts';
import type { EachResult, LoopResult } from './search-loop.ts';

export interface ScalingResult {
  entries: number;
  generateSeconds: number;
  buildSeconds: number;
  buildPeakRssMb: number;
  snapshotMb: number;
  /**
   * Opening the snapshot in a fresh process, as an API worker does before it listens (scripts/bench/open-snapshot.ts):
   * with the key filters the build stored, and building them from the indexes (absent before session 17).
   */
  openMs?: number;
  openBuildingFiltersMs?: number;
  typical: LoopResult;
  /** Worst-case queries, slowest p99 first. */
  worst: EachResult[];
  error?: string;
}

/** More than the reader's ranked-results cache (2,000), so that cycling through them measures the search. */
const TYPICAL_QUERIES = 5000;
const TYPICAL_SECONDS = 5;
const WORST_REPS = 10;
const SAMPLE_PAGES_PER_LANGUAGE = 40;

/** Runs a command under /usr/bin/time -v: wall seconds and the peak resident size of its largest process. */
export async function timed(args: string[], log: string): Promise<{ seconds: number; peakRssMb: number }> {
  const started = process.hrtime.bigint();
  const { code, stdout, stderr } = await runAsync('/usr/bin/time', ['-v', ...args], { cwd: ROOT, log });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (code !== 0) throw new Error(`${args.join(' ')} exited ${code}:\n${stdout.slice(-2000)}\n${stderr.slice(-3000)}`);
  const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
  return { seconds, peakRssMb: m ? Number(m[1]) / 1024 : Number.NaN };
}

export async function searchBench(snapshotPath: string, dir: string, seconds: number, typicalCount: number): Promise<{ typical: LoopResult; worst: EachResult[] }> {
  const snapshot = openSnapshot(snapshotPath);
  let typicalFile: string;
  let worstFile: string;
  try {
    const entries = sampleEntries(snapshot, SAMPLE_PAGES_PER_LANGUAGE);
    const languages = snapshot.languages().filter((l) => l.status === 'active').map((l) => l.code);
    typicalFile = path.join(dir, 'typical.json');
    worstFile = path.join(dir, 'worst.json');
    fs.writeFileSync(typicalFile, JSON.stringify(buildQueryMix(entries, typicalCount, 11)));
    fs.writeFileSync(worstFile, JSON.stringify(worstQueries(entries, languages)));
  } finally {
    snapshot.close();
  }
  const out = await runBenchScript<{ loop: LoopResult; each: EachResult[] }>('search-loop.ts',
    ['--snapshot', snapshotPath, '--queries', typicalFile, '--seconds', String(seconds), '--each', worstFile, '--reps', String(WORST_REPS)]);
  return { typical: out.loop, worst: [...out.each].sort((a, b) => b.p99Ms - a.p99Ms) };
}

export async function scaleOne(entries: number, tmp: string, keep: boolean): Promise<ScalingResult> {
  const dir = path.join(tmp, `synthetic-${entries}`);
  const corpora = path.join(dir, 'corpora');
  const snapshot = path.join(dir, 'snapshot.sqlite');
  const log = path.join(tmp, 'logs', `scaling-${entries}.log`);
  fs.mkdirSync(corpora, { recursive: true });
  console.log(`==> build scaling: ${entries.toLocaleString('en')} entries`);
  const gen = await timed([process.execPath, ...TSX, 'scripts/generate-synthetic-corpus.ts', '--entries', String(entries), '--out', corpora], log);
  console.log(`    generated in ${gen.seconds.toFixed(1)} s`);
  const build = await timed([process.execPath, ...TSX, 'build/main.ts', '--corpora', corpora, '--out', snapshot], log);
  const snapshotMb = fs.statSync(snapshot).size / 1024 ** 2;
  console.log(`    built in ${build.seconds.toFixed(1)} s, peak ${build.peakRssMb.toFixed(0)} MB, ${snapshotMb.toFixed(1)} MB`);
  const open = async (built: boolean): Promise<number> =>
    (await runBenchScript<{ openMs: number }>('open-snapshot.ts', ['--snapshot', snapshot, ...(built ? ['--built-filters'] : [])])).openMs;
  const openMs = await open(false);
  const openBuildingFiltersMs = await open(true);
  console.log(`    a worker opens it in ${openMs.toFixed(0)} ms (${openBuildingFiltersMs.toFixed(0)} ms building the key filters)`);
  const search = await searchBench(snapshot, dir, TYPICAL_SECONDS, TYPICAL_QUERIES);
  console.log(`    search typical p50 ${search.typical.p50Ms.toFixed(2)} ms p99 ${search.typical.p99Ms.toFixed(2)} ms; worst p99 ${search.worst[0]?.p99Ms.toFixed(1)} ms (${search.worst[0]?.label})`);
  if (!keep) fs.rmSync(dir, { recursive: true, force: true });
  return {
    entries,
    generateSeconds: gen.seconds,
    buildSeconds: build.seconds,
    buildPeakRssMb: build.peakRssMb,
    snapshotMb,
    openMs,
    openBuildingFiltersMs,
    typical: search.typical,
    worst: search.worst,
  };
}
