// Section "scaling": the subject's build over synthetic corpora of growing size and over the real corpora,
// timed and measured (wall time, peak memory, snapshot size), then a worker's open and the search on each.
import fs from 'node:fs';
import path from 'node:path';

import type { BenchContext, Figure, BuiltSnapshot, Section } from './context.ts';
import { f1, f2, n0, table } from './markdown.ts';
import { TSX, runAsync, runBenchScript } from './processes.ts';
import { subjectPath } from './subject-module.ts';
import type { EachResult, LoopResult, SlipsResult } from './search-loop.ts';

export interface ScalingRow {
  corpus: string;
  /** The entries asked of the synthetic corpus generator (none for the real corpora). */
  syntheticSize?: number;
  entries: number;
  buildSeconds: number;
  buildPeakRssMb: number;
  snapshotMb: number;
  /** A fresh process opening the snapshot, as an API worker does before it listens. */
  openMs: number;
  typical: LoopResult;
  /** The slowest worst-case queries, slowest p99 first. */
  worst: EachResult[];
  /** Slips of the keyboard, each computing its suggestions (search-loop.ts). */
  slips?: SlipsResult;
}

export interface ScalingResult {
  rows: ScalingRow[];
}

/** More than the reader's ranked-list cache holds (2,000), so that cycling through them measures the search. */
const TYPICAL_QUERIES = 5000;
const TYPICAL_SECONDS = 5;
const WORST_KEPT = 5;

/** Runs a command under /usr/bin/time -v: its wall seconds and the peak resident size of its largest process. */
async function timed(args: string[], cwd: string, log: string): Promise<{ seconds: number; peakRssMb: number }> {
  const started = process.hrtime.bigint();
  const { code, stdout, stderr } = await runAsync('/usr/bin/time', ['-v', ...args], { cwd, log });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (code !== 0) throw new Error(`${args.join(' ')} exited ${code}:\n${stdout.slice(-2000)}\n${stderr.slice(-3000)}`);
  const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
  return { seconds, peakRssMb: m ? Number(m[1]) / 1024 : Number.NaN };
}

/** The subject's build (snapshot/compiler/main.ts) of `corpora` (its own default when undefined) into `out`, timed. */
export async function timedBuild(root: string, corpora: string | undefined, out: string, log: string): Promise<BuiltSnapshot> {
  const build = await timed([process.execPath, ...TSX, subjectPath(root, 'snapshot/compiler/main.ts'), ...(corpora ? ['--corpora', corpora] : []), '--out', out], root, log);
  return { path: out, buildSeconds: build.seconds, buildPeakRssMb: build.peakRssMb, snapshotMb: fs.statSync(out).size / 1024 ** 2 };
}

async function measureSnapshot(ctx: BenchContext, corpus: string, built: BuiltSnapshot, syntheticSize?: number): Promise<ScalingRow> {
  const root = ['--root', ctx.subject.root, '--snapshot', built.path];
  const { openMs, entries } = await runBenchScript<{ openMs: number; entries: number }>('open-snapshot.ts', root);
  const search = await runBenchScript<{ loop: LoopResult; each: EachResult[]; slips?: SlipsResult }>('search-loop.ts',
    [...root, '--draw', String(TYPICAL_QUERIES), '--seconds', String(TYPICAL_SECONDS)], ['--expose-gc']);
  const worst = [...search.each].sort((a, b) => b.p99Ms - a.p99Ms).slice(0, WORST_KEPT);
  const { path: _path, ...build } = built;
  const row: ScalingRow = { corpus, ...(syntheticSize ? { syntheticSize } : {}), entries, ...build, openMs, typical: search.loop, worst, ...(search.slips ? { slips: search.slips } : {}) };
  console.log(`    ${n0(entries)} entries: built in ${f1(row.buildSeconds)} s, peak ${n0(row.buildPeakRssMb)} MB, ${f1(row.snapshotMb)} MB; ` +
    `opened in ${n0(openMs)} ms; search p99 ${f2(row.typical.p99Ms)} ms, worst ${f1(worst[0]?.p99Ms ?? Number.NaN)} ms (${worst[0]?.label})`);
  return row;
}

async function run(ctx: BenchContext): Promise<ScalingResult> {
  const rows: ScalingRow[] = [];
  console.log('==> build scaling: the real corpora');
  rows.push(await measureSnapshot(ctx, 'real corpora', await ctx.realSnapshot()));
  for (const size of ctx.opts.scalingSizes) {
    console.log(`==> build scaling: ${n0(size)} synthetic entries`);
    const dir = path.join(ctx.dir, `synthetic-${size}`);
    const corpora = path.join(dir, 'corpora');
    fs.mkdirSync(corpora, { recursive: true });
    await timed([process.execPath, ...TSX, 'scripts/generate-synthetic-corpus.ts', '--entries', String(size), '--out', corpora], ctx.subject.root, ctx.log);
    const built = await timedBuild(ctx.subject.root, corpora, path.join(dir, 'snapshot.sqlite'), ctx.log);
    rows.push(await measureSnapshot(ctx, `synthetic ${n0(size)}`, built, size));
    if (!ctx.opts.keepTmp) fs.rmSync(dir, { recursive: true, force: true });
  }
  return { rows };
}

function render(r: ScalingResult): string {
  const rows = r.rows.map((s) => [
    s.corpus, n0(s.entries), f1(s.buildSeconds), n0(s.buildPeakRssMb), f1(s.snapshotMb), n0(s.openMs),
    n0(s.typical.perSecond), f2(s.typical.p50Ms), f2(s.typical.p99Ms), `${f1(s.worst[0]?.p99Ms ?? Number.NaN)} (${s.worst[0]?.label ?? '-'})`,
    s.slips ? `${f2(s.slips.p50Ms)} / ${f2(s.slips.p99Ms)}` : '-',
  ]);
  const worst = r.rows.map((s) => `- ${s.corpus}: ${s.worst.map((w) => `${w.label} ${f1(w.p99Ms)} ms${w.error ? ` (threw: ${w.error})` : ''}`).join('; ')}`).join('\n');
  return `## Build scaling

Each corpus built by \`snapshot/compiler/main.ts\` under \`/usr/bin/time -v\` (peak: the largest process's maximum resident
size); the synthetic ones written first in the real formats by \`scripts/generate-synthetic-corpus.ts\`. "open
ms": a fresh process opening the snapshot, as an API worker does before it listens. Search, in one process:
typical = ${n0(TYPICAL_QUERIES)} distinct queries drawn from that snapshot as the mix is, cycled for ${TYPICAL_SECONDS} s; worst = one-letter
prefixes, the commonest gloss words and deep browse pages, each run once on each of 10 fresh readers warmed
by 200 typical queries (so never from a cache), p99 of the 10; slips = 1,000 headwords with one letter changed,
each searched once in its language, computing its "did you mean" (p50 / p99).

${table(['corpus', 'entries', 'build s', 'build peak MB', 'snapshot MB', 'open ms', 'searches/s', 'p50 ms', 'p99 ms', 'worst p99 ms (query)', 'slips p50 / p99 ms'], rows)}

Slowest worst-case queries:
${worst}
`;
}

function figures(r: ScalingResult): Figure[] {
  return r.rows.flatMap((s): Figure[] => [
    { name: `${s.corpus}: build time`, value: s.buildSeconds, unit: 's', better: 'lower' },
    { name: `${s.corpus}: build peak memory`, value: s.buildPeakRssMb, unit: 'MB', better: 'lower' },
    { name: `${s.corpus}: snapshot size`, value: s.snapshotMb, unit: 'MB', better: 'lower' },
    { name: `${s.corpus}: open`, value: s.openMs, unit: 'ms', better: 'lower' },
    { name: `${s.corpus}: search p99`, value: s.typical.p99Ms, unit: 'ms', better: 'lower' },
    { name: `${s.corpus}: worst query p99`, value: s.worst[0]?.p99Ms ?? Number.NaN, unit: 'ms', better: 'lower' },
    ...(s.slips ? [{ name: `${s.corpus}: slips p99`, value: s.slips.p99Ms, unit: 'ms', better: 'lower' } as Figure] : []),
  ]);
}

export const scalingSection: Section<'scaling'> = { id: 'scaling', run, render, figures };
