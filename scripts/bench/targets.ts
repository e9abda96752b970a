// The targets the bench holds the stack to, and one run's results against them: one row per target.
import type { SectionResults } from './context.ts';
import { f1, f2, n0 } from './markdown.ts';
import { SCENARIO_TITLES } from './scenarios.ts';
import type { ScenarioId } from './scenarios.ts';
import type { ScenarioResult } from './http.ts';
import { bareLoopRate, mixShareOfBareLoop } from './search.ts';

export const TARGETS = {
  /** Each lookup's rate as a share of raw uWS serving the same bytes, and the stretch goal. */
  lookupRatio: 0.6,
  lookupRatioStretch: 0.75,
  lookupP99Ms: 5,
  /** The stack's rate on the search mix as a share of the bare loop's. */
  searchMixOfBareLoop: 0.5,
  searchMixP99Ms: 10,
  largeTypicalP99Ms: 10,
  largeWorstP99Ms: 50,
  largeBuildSeconds: 180,
  largeBuildPeakMb: 1024,
  workerRssMb: 150,
  /** The synthetic corpus size the search and build targets at scale apply to. */
  largeEntries: 1_000_000,
  /** Light keys' rate as a share of keys at volume on the same endpoint, and their p99, at this many connections. */
  lightOfVolume: 0.7,
  lightP99Ms: 10,
  lightConnections: 32,
  /** What a light key adds to a one-request-at-a-time client's p50, against a key at volume. */
  addedP50Ms: 0.3,
} as const;

export interface TargetRow {
  target: string;
  measured: string;
  verdict: 'PASS' | 'MISS' | 'not measured';
}

export const LOOKUPS: readonly ScenarioId[] = ['entry-id', 'entry-slug', 'word-of-the-day', 'languages', 'stats', 'search-repeat'];

function row(target: string, measured: string | undefined, ok: boolean | undefined): TargetRow {
  return { target, measured: measured ?? '-', verdict: ok === undefined ? 'not measured' : ok ? 'PASS' : 'MISS' };
}

/**
 * A p99 with raw uWS's from the same runs beside it. Raw uWS sends the same bytes and does nothing else, so
 * its p99 is the floor of the stack's on that machine: where raw's own p99 is above a target, no service
 * code can meet it there, and the row shows it.
 */
function withRawP99(s: ScenarioResult): string {
  return `${f2(s.median.stackP99Ms)} ms (raw uWS ${f2(s.median.rawP99Ms)} ms)`;
}

export function evaluateTargets(r: SectionResults, connections: number): TargetRow[] {
  const rows: TargetRow[] = [];
  for (const id of LOOKUPS) {
    const s = r.http?.scenarios.find((h) => h.id === id);
    const name = SCENARIO_TITLES[id];
    const ratio = s?.median.ratio;
    rows.push(row(`${name}: >= ${TARGETS.lookupRatio} of raw uWS (stretch ${TARGETS.lookupRatioStretch})`,
      ratio === undefined ? undefined : `${f2(ratio)}${ratio >= TARGETS.lookupRatioStretch ? ' (stretch met)' : ''}`, ratio === undefined ? undefined : ratio >= TARGETS.lookupRatio));
    rows.push(row(`${name}: p99 <= ${TARGETS.lookupP99Ms} ms at ${connections} connections`, s && withRawP99(s), s && s.median.stackP99Ms <= TARGETS.lookupP99Ms));
    rows.push(row(`${name}: no non-2xx`, s && String(s.failures), s && s.failures === 0));
  }
  const mix = r.http?.scenarios.find((h) => h.id === 'search-mix');
  const share = mixShareOfBareLoop(r);
  rows.push(row(`search mix: >= ${TARGETS.searchMixOfBareLoop} of the bare loop's rate`,
    share === undefined ? undefined : `${f2(share)} (${n0(mix?.median.stackRps ?? Number.NaN)} against ${n0(bareLoopRate(r) ?? Number.NaN)}/s)`,
    share === undefined ? undefined : share >= TARGETS.searchMixOfBareLoop));
  rows.push(row(`search mix: p99 <= ${TARGETS.searchMixP99Ms} ms`, mix && withRawP99(mix), mix && mix.median.stackP99Ms <= TARGETS.searchMixP99Ms));
  rows.push(row('search mix: no non-2xx', mix && String(mix.failures), mix && mix.failures === 0));
  const large = r.scaling?.rows.find((s) => s.syntheticSize === TARGETS.largeEntries);
  const worst = large?.worst[0];
  rows.push(row(`1M search: typical p99 <= ${TARGETS.largeTypicalP99Ms} ms`, large && `${f2(large.typical.p99Ms)} ms`, large && large.typical.p99Ms <= TARGETS.largeTypicalP99Ms));
  rows.push(row(`1M search: worst query p99 <= ${TARGETS.largeWorstP99Ms} ms`, worst && `${f1(worst.p99Ms)} ms (${worst.label})`, worst && worst.p99Ms <= TARGETS.largeWorstP99Ms));
  rows.push(row(`1M build: <= ${TARGETS.largeBuildSeconds / 60} min`, large && `${f1(large.buildSeconds)} s`, large && large.buildSeconds <= TARGETS.largeBuildSeconds));
  rows.push(row(`1M build: peak memory <= ${TARGETS.largeBuildPeakMb / 1024} GB`, large && `${n0(large.buildPeakRssMb)} MB`, large && large.buildPeakRssMb <= TARGETS.largeBuildPeakMb));
  rows.push(...manyClientsRows(r));
  const workers = r.http?.workers;
  const largest = workers?.length ? Math.max(...workers.map((m) => m.rssMb)) : undefined;
  rows.push(row(`each API worker < ${TARGETS.workerRssMb} MB resident after the runs`,
    largest === undefined ? undefined : `largest ${f1(largest)} MB`, largest === undefined ? undefined : largest < TARGETS.workerRssMb));
  return rows;
}

function manyClientsRows(r: SectionResults): TargetRow[] {
  const m = r['many-clients'];
  const rows: TargetRow[] = [];
  for (const count of [1_000, 10_000]) {
    const x = m?.mixes.find((mix) => mix.lightKeys === count && mix.connections === TARGETS.lightConnections);
    const name = `many clients, ${n0(count)} light keys`;
    rows.push(row(`${name}: >= ${TARGETS.lightOfVolume} of keys at volume at ${TARGETS.lightConnections} connections`,
      x && `${f2(x.median.ratio)} (${n0(x.median.lightRps)} against ${n0(x.median.volumeRps)}/s)`, x && x.median.ratio >= TARGETS.lightOfVolume));
    rows.push(row(`${name}: p99 <= ${TARGETS.lightP99Ms} ms at ${TARGETS.lightConnections} connections`, x && `${f2(x.median.lightP99Ms)} ms`, x && x.median.lightP99Ms <= TARGETS.lightP99Ms));
    rows.push(row(`${name}: no non-2xx`, x && String(x.failures), x && x.failures === 0));
  }
  for (const mode of ['new connection', 'keep-alive'] as const) {
    const s = m?.oneAtATime.find((o) => o.mode === mode);
    rows.push(row(`one request at a time, ${mode}: added p50 <= ${TARGETS.addedP50Ms} ms against a key at volume`, s && `${f2(s.addedP50Ms)} ms`, s && s.addedP50Ms <= TARGETS.addedP50Ms));
  }
  return rows;
}
