// Holds one run's results against issue 7's targets: one PASS/MISS row per target.
import type { ScenarioResult } from './http-bench.ts';
import { isWorker } from './proc-stats.ts';
import type { BenchResults } from './results.ts';
import { TARGETS } from './scenarios.ts';

export interface TargetRow {
  target: string;
  measured: string;
  verdict: 'PASS' | 'MISS' | 'n/a';
}

const LOOKUPS = ['entry-id', 'entry-slug', 'word-of-the-day', 'languages', 'stats', 'search-repeat'];

/** A stack p99, with what raw uWS burning the same CPU per request measured beside it when there is one. */
function p99Measured(s: ScenarioResult): string {
  const matched = s.median.matchedP99Ms;
  return `${s.median.stackP99Ms.toFixed(2)} ms${matched === undefined ? '' : ` (raw at the stack's CPU per request: ${matched.toFixed(2)} ms)`}`;
}

function verdict(ok: boolean | undefined): TargetRow['verdict'] {
  return ok === undefined ? 'n/a' : ok ? 'PASS' : 'MISS';
}

export function evaluateTargets(r: BenchResults): TargetRow[] {
  const rows: TargetRow[] = [];
  for (const id of LOOKUPS) {
    const s = r.http?.find((h) => h.id === id);
    const non2xx = s ? s.stack.reduce((n, x) => n + x.non2xx + x.socketErrors, 0) : undefined;
    rows.push({
      target: `${s?.title ?? id}: >= ${TARGETS.lookupRatio} of raw uWS (stretch ${TARGETS.lookupRatioStretch})`,
      measured: s ? `${s.median.ratio.toFixed(2)}${s.median.ratio >= TARGETS.lookupRatioStretch ? ' (stretch met)' : ''}` : 'not measured',
      verdict: verdict(s && s.median.ratio >= TARGETS.lookupRatio),
    });
    rows.push({
      target: `${s?.title ?? id}: p99 <= ${TARGETS.lookupP99Ms} ms at ${r.options.connections} connections`,
      measured: s ? p99Measured(s) : 'not measured',
      verdict: verdict(s && s.median.stackP99Ms <= TARGETS.lookupP99Ms),
    });
    rows.push({
      target: `${s?.title ?? id}: no non-2xx`,
      measured: non2xx === undefined ? 'not measured' : `${non2xx}`,
      verdict: verdict(non2xx === undefined ? undefined : non2xx === 0),
    });
  }
  const mix = r.http?.find((h) => h.id === 'search-mix');
  const loop = r.bareLoop;
  const share = mix && loop ? mix.median.stackRps / loop.perSecond : undefined;
  rows.push({
    target: `search mix: >= ${TARGETS.searchMixOfBareLoop} of the bare-loop rate`,
    measured: share === undefined ? 'not measured'
      : `${share.toFixed(2)} (${Math.round(mix?.median.stackRps ?? 0)} vs ${Math.round(loop?.perSecond ?? 0)} /s)`,
    verdict: verdict(share === undefined ? undefined : share >= TARGETS.searchMixOfBareLoop),
  });
  rows.push({
    target: `search mix: p99 <= ${TARGETS.searchMixP99Ms} ms`,
    measured: mix ? p99Measured(mix) : 'not measured',
    verdict: verdict(mix && mix.median.stackP99Ms <= TARGETS.searchMixP99Ms),
  });
  const mixBad = mix ? mix.stack.reduce((n, x) => n + x.non2xx + x.socketErrors, 0) : undefined;
  rows.push({
    target: 'search mix: no non-2xx',
    measured: mixBad === undefined ? 'not measured' : String(mixBad),
    verdict: verdict(mixBad === undefined ? undefined : mixBad === 0),
  });
  const large = r.scaling?.find((s) => s.entries === TARGETS.largeEntries);
  const worst = large?.worst[0];
  rows.push({
    target: `1M search: typical p99 <= ${TARGETS.largeTypicalP99Ms} ms`,
    measured: large ? `${large.typical.p99Ms.toFixed(2)} ms` : 'not measured',
    verdict: verdict(large && large.typical.p99Ms <= TARGETS.largeTypicalP99Ms),
  });
  rows.push({
    target: `1M search: worst query p99 <= ${TARGETS.largeWorstP99Ms} ms`,
    measured: worst ? `${worst.p99Ms.toFixed(1)} ms (${worst.label})` : 'not measured',
    verdict: verdict(worst && worst.p99Ms <= TARGETS.largeWorstP99Ms),
  });
  rows.push({
    target: `1M build: <= ${TARGETS.largeBuildSeconds / 60} min`,
    measured: large ? `${large.buildSeconds.toFixed(0)} s` : 'not measured',
    verdict: verdict(large && large.buildSeconds <= TARGETS.largeBuildSeconds),
  });
  rows.push({
    target: `1M build: peak memory <= ${TARGETS.largeBuildPeakMb / 1024} GB`,
    measured: large ? `${large.buildPeakRssMb.toFixed(0)} MB` : 'not measured',
    verdict: verdict(large && large.buildPeakRssMb <= TARGETS.largeBuildPeakMb),
  });
  const workers = r.memory?.filter((m) => isWorker(m.name));
  const maxRss = workers?.length ? Math.max(...workers.map((m) => m.rssMb)) : undefined;
  rows.push({
    target: `each API worker < ${TARGETS.workerRssMb} MB resident after the run`,
    measured: maxRss === undefined ? 'not measured' : `max ${maxRss.toFixed(0)} MB (${workers?.map((m) => m.rssMb.toFixed(0)).join(', ')})`,
    verdict: verdict(maxRss === undefined ? undefined : maxRss < TARGETS.workerRssMb),
  });
  return rows;
}
