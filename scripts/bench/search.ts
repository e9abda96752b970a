// Section "search": the bare loop, one process running the subject's reader over the search mix with nothing
// around it; set against the HTTP section's mix, it is what HTTP, metering and two workers keep of a search.
import type { BenchContext, BenchResults, Figure, Section, SectionResults } from './context.ts';
import { f1, f2, n0, table } from './markdown.ts';
import { runBenchScript } from './processes.ts';
import { median } from './stats.ts';
import type { ScenarioResult } from './http.ts';
import type { LoopResult, SlipsResult } from './search-loop.ts';

/** The bare loop, and slips of the keyboard timed apart (each computes its "did you mean"). */
export type SearchResult = LoopResult & { slips?: SlipsResult };

/** Slips of the keyboard timed on the real snapshot. */
const SLIP_QUERIES = 1000;

/** One run of the bare loop over the workload's mix, for the bench's duration, in a process of its own. */
export async function runBareLoop(ctx: BenchContext): Promise<LoopResult> {
  const real = await ctx.realSnapshot();
  const w = await ctx.workload();
  const { loop } = await runBenchScript<{ loop: LoopResult }>('search-loop.ts',
    ['--root', ctx.subject.root, '--snapshot', real.path, '--queries', w.mixJson, '--seconds', String(ctx.opts.durationSeconds)]);
  return loop;
}

async function run(ctx: BenchContext): Promise<SearchResult> {
  const w = await ctx.workload();
  console.log(`==> bare loop: the reader over the same ${w.mix.length} queries, one process, ${ctx.opts.durationSeconds} s`);
  const loop = await runBareLoop(ctx);
  console.log(`    ${n0(loop.perSecond)} searches/s, p50 ${f2(loop.p50Ms)} ms, p99 ${f2(loop.p99Ms)} ms`);
  const real = await ctx.realSnapshot();
  const { slips } = await runBenchScript<{ slips: SlipsResult }>('search-loop.ts',
    ['--root', ctx.subject.root, '--snapshot', real.path, '--slips', String(SLIP_QUERIES)], ['--expose-gc']);
  console.log(`    slips of the keyboard: p50 ${f2(slips.p50Ms)} ms, p99 ${f2(slips.p99Ms)} ms, ${n0(slips.withSuggestions)} of ${n0(slips.queries)} with suggestions`);
  return { ...loop, slips };
}

/** The median rate of the bare loop's runs in alternation with the mix's stack runs; undefined without any. */
export function alternatedBareRate(mix: ScenarioResult): number | undefined {
  return mix.bare?.length ? median(mix.bare.map((b) => b.perSecond)) : undefined;
}

/**
 * The bare loop's rate the target sets the stack's against: the median of its runs in alternation with the
 * HTTP section's mix when that ran (see ScenarioResult.bare), else this section's own run.
 */
export function bareLoopRate(sections: SectionResults): number | undefined {
  const mix = sections.http?.scenarios.find((s) => s.id === 'search-mix');
  return (mix && alternatedBareRate(mix)) ?? sections.search?.perSecond;
}

/** The stack's rate on the search mix over the bare loop's (the target's ratio); undefined without both. */
export function mixShareOfBareLoop(sections: SectionResults): number | undefined {
  const mix = sections.http?.scenarios.find((s) => s.id === 'search-mix');
  const bare = bareLoopRate(sections);
  return mix && bare !== undefined ? mix.median.stackRps / bare : undefined;
}

function render(loop: SearchResult, sections: SectionResults, run: BenchResults): string {
  const mix = sections.http?.scenarios.find((s) => s.id === 'search-mix');
  const share = mixShareOfBareLoop(sections);
  return `## Search: HTTP against the bare loop

The bare loop is one process calling the reader's \`search()\` over the ${loop.queries.toLocaleString('en')} queries of the mix for
${f1(loop.seconds)} s (${f1(loop.passes)} passes), with no HTTP, metering or JSON around it.

${table(['', 'searches/s', 'p50 ms', 'p99 ms'], [
    ['bare loop, one process', n0(loop.perSecond), f2(loop.p50Ms), f2(loop.p99Ms)],
    ...(mix?.bare?.length ? [['bare loop, one run after each HTTP run (median)', n0(alternatedBareRate(mix) ?? Number.NaN), f2(median(mix.bare.map((b) => b.p50Ms))), f2(median(mix.bare.map((b) => b.p99Ms)))]] : []),
    ...(mix ? [[`HTTP, ${run.options.apiWorkers} API workers, ${run.options.connections} connections`, n0(mix.median.stackRps), f2(mix.median.stackP50Ms), f2(mix.median.stackP99Ms)]] : []),
  ])}
${mix?.bare?.length ? `\nThe bare loop's runs in alternation with the HTTP runs: ${mix.bare.map((b) => n0(b.perSecond)).join(' / ')} searches/s. The ratio
sets HTTP against their median: the machine's speed drifts over a bench's minutes, and runs in alternation meet
the same drift.\n` : ''}${loop.slips ? slipsText(loop.slips) : ''}${share === undefined ? '' : `\nHTTP over the bare loop: **${f2(share)}**.\n`}${loop.failed ? `\n**${loop.failed} searches threw** (over HTTP, 500s), e.g.:\n${loop.failures.map((f) => `- \`${f}\``).join('\n')}\n` : ''}`;
}

function slipsText(s: SlipsResult): string {
  return `
Slips of the keyboard: ${n0(s.queries)} headwords of the sample with one letter changed, each searched once in its
language (never from a cache), so that each that finds few entries computes its suggestions
(\`snapshot/reader/suggestions.ts\`): p50 ${f2(s.p50Ms)} ms, p99 ${f2(s.p99Ms)} ms, max ${f2(s.maxMs)} ms; ${n0(s.withSuggestions)} got suggestions.
`;
}

function figures(loop: SearchResult): Figure[] {
  return [
    ...(loop.slips ? [{ name: 'slips of the keyboard: p99', value: loop.slips.p99Ms, unit: 'ms', better: 'lower' } as Figure] : []),
    { name: 'bare loop: searches/s', value: loop.perSecond, unit: '/s', better: 'higher' },
    { name: 'bare loop: p99', value: loop.p99Ms, unit: 'ms', better: 'lower' },
  ];
}

export const searchSection: Section<'search'> = { id: 'search', run, render, figures };
