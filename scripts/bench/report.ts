// The bench's reports, from one run's results: BENCHMARKS.md (method, machine, results against the targets),
// the README's summary table, and the side-by-side report of --compare.
import fs from 'node:fs';

import type { BenchResults, Figure, Section, SectionId, SubjectResults } from './context.ts';
import { f1, f2, n0, table } from './markdown.ts';
import { mixShareOfBareLoop } from './search.ts';
import { SECTIONS } from './sections.ts';
import { LOOKUPS, TARGETS, evaluateTargets } from './targets.ts';
import type { TargetRow } from './targets.ts';

export const README_START = '<!-- bench:start (written by npm run bench) -->';
export const README_END = '<!-- bench:end -->';

function verdict(v: TargetRow['verdict']): string {
  return v === 'MISS' ? '**MISS**' : v;
}

function machine(r: BenchResults): string {
  const m = r.machine;
  const minutes = (Date.parse(r.finishedAt) - Date.parse(r.startedAt)) / 60_000;
  const load = r.load.map((b) => `load average ${b.loadavg.map(f2).join(' / ')}, ${f1(b.busyPercent)} % busy` +
    (b.top.length ? ` (busiest: ${b.top.slice(0, 3).map((t) => `\`${t.replace(/`/g, "'")}\``).join(', ')})` : '')).join('; after: ');
  return `## Machine

- ${m.cpuModel}, ${m.cpus} cores, ${f1(m.memoryGb)} GB of memory; ${m.os}, Linux ${m.kernel}
- Node ${m.node}, SQLite ${m.sqlite}; ${Object.entries(m.packages).map(([k, v]) => `${k} ${v}`).join(', ')}; ${Object.values(m.tools).join(', ')}
- \`${r.command}\`, ${r.startedAt.slice(0, 16).replace('T', ' ')} UTC, ${f1(minutes)} min; code: ${r.subjects.map((s) => `${s.subject.name} at ${s.subject.commit}`).join(', ')}
- Other load on the machine before: ${load}
`;
}

function method(r: BenchResults): string {
  const o = r.options;
  return `## Method

- **HTTP.** The stack as production runs it: \`node scripts/bundle.mjs\`, then \`pm2 start ecosystem.config.cjs\`
  with its own PM2_HOME, ports and DATA_DIR: nats-server, metering and ${o.apiWorkers} API workers running \`dist/\`, on
  the snapshot of the real corpora. Keys come from \`POST /api/v1/developers\` and are raised to the institution
  plan with \`npm run ops -- developers set-plan\`; each run of each endpoint gets keys of its own, so that none
  meets its daily quota. The ceiling, \`scripts/bench/raw-server.ts\`: ${o.apiWorkers} uWebSockets.js processes on one port
  (as many as API workers) answering each path with the status, headers and body the stack sent for it.
- **Load.** \`wrk -t${o.threads} -c${o.connections} -d${o.durationSeconds}s\` with the Lua scripts in \`scripts/bench/wrk/\`. wrk shares the cores with
  the servers it loads; it ran at ${r.wrkPriority} (\`clientPriority\` in \`scripts/bench/wrk.ts\`).
  Its latencies are corrected for coordinated omission (a stall counts as the requests a steady client would
  have sent meanwhile). Each endpoint: a warm-up of each server, then ${o.runs} runs of raw uWS and the stack in
  turn; the figures are medians.
- **Search mix.** ${n0(o.queries)} distinct queries drawn from the real snapshot (exact, folded, prefix and English
  gloss, with and without a language), more than every cache of a worker holds; each run starts elsewhere in
  the list, and raw uWS replays the bodies of queries held out of it. The bare loop runs the reader over the
  same queries in one process, once after each of the stack's runs on the mix (the ratio's rate is their
  median) and once more in the search section.
- **Corpora.** ${r.corpora}.
- **Build scaling.** \`snapshot/compiler/main.ts\` under \`/usr/bin/time -v\` on the real corpora and on synthetic corpora of
  ${o.scalingSizes.map(n0).join(', ')} entries (\`scripts/generate-synthetic-corpus.ts\`).
- **Metering.** \`scripts/bench/metering-load.ts\`: a worker's Meter against the metering service on a real
  nats-server.
- **Many clients.** The HTTP stack again, on \`GET /api/v1/stats\`: 1,000 and 10,000 free keys registered over
  many loopback addresses and each used once before the runs, each request with the next key
  (\`scripts/bench/wrk/keys.lua\`), against 8 institution keys the same way, in ${o.runs} alternating pairs at 32
  and 256 connections; a client sending one request at a time against a key at volume
  (\`scripts/bench/one-at-a-time.ts\`); the metering service alone with 1 and 2 processes
  (\`scripts/bench/metering-admissions.ts\`). \`npm run bench -- --only many-clients --compare <ref>\` sets a
  ref's figures beside them as the baseline.
- **Compression.** \`scripts/bench/compression-loop.ts\`: 2,000 pages of the search mix made on a fresh reader
  (a first request's search and page), then compressed at each setting of
  \`services/api/http/compression.ts\` for the run's duration each, one setting after another in one process.
  The settings: a page no cache keeps (a first request) goes at \`once\`, brotli 2 or gzip 1, the lightest that
  still take most of the bytes off; a body sent many times goes once per coding at \`kept\`, brotli 5 or gzip 9;
  website pages at brotli 4 or gzip 6. \`npm run bench -- --only compression --duration 3\` runs it alone.
- **Floods.** The HTTP stack with \`TRUST_PROXY=127.0.0.1\`: a client sending one request at a time on its own free
  key, idle and while \`wrk -t2 -c400\` floods the stack from one client address with registrations, random keys
  or \`/healthz\` (\`scripts/bench/wrk/flood.lua\`), ${o.durationSeconds} s each (\`scripts/bench/floods.ts\`): straight to the
  workers and through nginx running \`docs/nginx.conf\`, each with the flood's wrk at the priority above
  (\`plain\`) and at nice 19 (\`attacker\`: an attacker's CPU is its own machine's, and a generator sharing our
  2 cores slows the probe by taking them, which no guard can prevent; both are reported).
`;
}

function sections(subject: SubjectResults, r: BenchResults): string {
  return SECTIONS.flatMap((s) => {
    const section = s as Section<SectionId>;
    const result = subject.sections[section.id];
    return result === undefined ? [] : [section.render(result, subject.sections, r)];
  }).join('\n');
}

function errors(subject: SubjectResults): string {
  return subject.errors.length ? `## Errors\n\n${subject.errors.map((e) => `\`\`\`\n${e.slice(0, 2000)}\n\`\`\``).join('\n\n')}\n` : '';
}

/** BENCHMARKS.md: the working tree's results. */
export function renderReport(r: BenchResults): string {
  const subject = r.subjects[0];
  const targets = evaluateTargets(subject.sections, r.options.connections);
  return `# Benchmarks

Written by \`npm run bench\` (\`scripts/bench/\`) from one run on the machine below; run it again on a quiet
machine for figures to compare. \`npm run bench -- --compare <git-ref>\` measures another commit the same way
and sets the two side by side.

## Results against the targets

${table(['target', 'measured', ''], targets.map((t) => [t.target, t.measured, verdict(t.verdict)]))}

A p99 is shown with raw uWS's from the same runs: raw uWS sends the same bytes and does nothing else, so its
p99 is the lowest the stack's can be on this machine.

${machine(r)}
${method(r)}
${sections(subject, r)}
${errors(subject)}`.replace(/\n{3,}/g, '\n\n');
}

function change(a: Figure, b: Figure | undefined): string {
  if (!b || !Number.isFinite(a.value) || !Number.isFinite(b.value) || b.value === 0) return '-';
  const pct = (100 * (a.value - b.value)) / b.value;
  const better = a.better === 'higher' ? pct > 0 : pct < 0;
  return `${pct > 0 ? '+' : ''}${f1(pct)} %${Math.abs(pct) >= 5 ? (better ? ' better' : ' worse') : ''}`;
}

function figuresOf(subject: SubjectResults): Figure[] {
  return SECTIONS.flatMap((s) => {
    const section = s as Section<SectionId>;
    const result = subject.sections[section.id];
    return result === undefined ? [] : section.figures(result);
  });
}

const value = (f: Figure | undefined) => (f ? `${Math.abs(f.value) >= 100 ? n0(f.value) : f2(f.value)}${f.unit ? ` ${f.unit}` : ''}` : '-');

/** The --compare report: the working tree and the ref, target by target and figure by figure. */
export function renderComparison(r: BenchResults): string {
  const [a, b] = r.subjects;
  const ta = evaluateTargets(a.sections, r.options.connections);
  const tb = evaluateTargets(b.sections, r.options.connections);
  const fb = new Map(figuresOf(b).map((f) => [f.name, f]));
  return `# Benchmarks: ${a.subject.name} (${a.subject.commit}) against ${b.subject.name} (${b.subject.commit})

Both measured by the same run of \`${r.command}\`, one after the other; the machine's speed drifts between
the two, so the ratios to raw uWS and to the bare loop (each taken within one subject's runs) compare best.

## Targets

${table(['target', a.subject.name, '', b.subject.name, ''], ta.flatMap((t, i) => (t.verdict === 'not measured' && tb[i].verdict === 'not measured' ? [] : [[t.target, t.measured, verdict(t.verdict), tb[i].measured, verdict(tb[i].verdict)]])))}

## Figures

${table(['figure', a.subject.name, b.subject.name, 'change'], figuresOf(a).map((f) => [f.name, value(f), value(fb.get(f.name)), change(f, fb.get(f.name))]))}

${machine(r)}
${[a, b].map(errors).join('\n')}`.replace(/\n{3,}/g, '\n\n');
}

const range = (values: number[], fmt: (x: number) => string) => {
  const finite = values.filter(Number.isFinite);
  if (!finite.length) return '-';
  const [lo, hi] = [Math.min(...finite), Math.max(...finite)];
  return fmt(lo) === fmt(hi) ? fmt(lo) : `${fmt(lo)}-${fmt(hi)}`;
};

/** The README's summary: one table of the working tree's figures against the targets, and where they come from. */
export function readmeSummary(r: BenchResults): string {
  const s = r.subjects[0].sections;
  const lookups = s.http?.scenarios.filter((x) => LOOKUPS.includes(x.id)) ?? [];
  const mix = s.http?.scenarios.find((x) => x.id === 'search-mix');
  const share = mixShareOfBareLoop(s);
  const large = s.scaling?.rows.find((x) => x.syntheticSize === TARGETS.largeEntries);
  const real = s.scaling?.rows.find((x) => x.syntheticSize === undefined);
  const workers = s.http?.workers ?? [];
  const m = r.machine;
  const lookupRatios = lookups.map((x) => x.median.ratio);
  const lookupP99s = lookups.map((x) => x.median.stackP99Ms);
  const largest = workers.length ? Math.max(...workers.map((w) => w.rssMb)) : undefined;
  const worst = large?.worst[0];
  // Each row says whether it meets its target, as BENCHMARKS.md's target table does: a figure that misses must not read as a result.
  const rows: [string, string, string, boolean | undefined][] = [
    ['lookups (entry by id and slug, word of the day, languages, stats, a repeated search): rate against raw uWS', range(lookupRatios, f2), `>= ${TARGETS.lookupRatio}`,
      lookups.length ? lookupRatios.every((x) => x >= TARGETS.lookupRatio) : undefined],
    [`lookups: p99 at ${r.options.connections} connections (raw uWS's in the same runs)`,
      lookups.length ? `${range(lookupP99s, f1)} ms (${range(lookups.map((x) => x.median.rawP99Ms), f1)} ms)` : '-', `<= ${TARGETS.lookupP99Ms} ms`,
      lookups.length ? lookupP99s.every((x) => x <= TARGETS.lookupP99Ms) : undefined],
    [`search, ${n0(r.options.queries)} distinct real queries: rate, and against the bare loop`,
      mix && share !== undefined ? `${n0(mix.median.stackRps)} req/s, ${f2(share)}` : '-', `>= ${TARGETS.searchMixOfBareLoop}`,
      share === undefined ? undefined : share >= TARGETS.searchMixOfBareLoop],
    ["search mix: p99 (raw uWS's in the same runs)", mix ? `${f1(mix.median.stackP99Ms)} ms (${f1(mix.median.rawP99Ms)} ms)` : '-', `<= ${TARGETS.searchMixP99Ms} ms`,
      mix && mix.median.stackP99Ms <= TARGETS.searchMixP99Ms],
    ...manyClientsSummary(s),
    ['API workers: resident memory after the runs', workers.length ? `${range(workers.map((w) => w.rssMb), n0)} MB` : '-', `< ${TARGETS.workerRssMb} MB`,
      largest === undefined ? undefined : largest < TARGETS.workerRssMb],
    ['1M-entry synthetic corpus: build time, peak memory', large ? `${n0(large.buildSeconds)} s, ${n0(large.buildPeakRssMb)} MB` : '-', `<= ${TARGETS.largeBuildSeconds / 60} min, ${TARGETS.largeBuildPeakMb / 1024} GB`,
      large && large.buildSeconds <= TARGETS.largeBuildSeconds && large.buildPeakRssMb <= TARGETS.largeBuildPeakMb],
    ['1M entries: search p99, typical and worst query', large ? `${f1(large.typical.p99Ms)} ms, ${f1(worst?.p99Ms ?? Number.NaN)} ms` : '-', `<= ${TARGETS.largeTypicalP99Ms} ms, ${TARGETS.largeWorstP99Ms} ms`,
      large && worst && large.typical.p99Ms <= TARGETS.largeTypicalP99Ms && worst.p99Ms <= TARGETS.largeWorstP99Ms],
    ['real corpora: build time, peak memory, snapshot size', real ? `${n0(real.buildSeconds)} s, ${n0(real.buildPeakRssMb)} MB, ${n0(real.snapshotMb)} MB` : '-', '', undefined],
  ];
  const cells = rows.map(([measure, result, target, ok]) => [measure, result, target, target === '' || ok === undefined ? '' : ok ? 'PASS' : 'MISS']);
  return `${table(['measure', 'result', 'target', ''], cells)}

${m.cpuModel}, ${m.cpus} cores, ${n0(m.memoryGb)} GB, Linux ${m.kernel}, Node ${m.node}; load average ${f1(r.load[0]?.loadavg[0] ?? Number.NaN)} when
the run began; ${r.startedAt.slice(0, 10)}, \`${r.command}\`.`;
}

/** Replaces what stands between the bench markers of the README with the summary. */
export function writeReadmeSummary(readme: string, summary: string): void {
  const text = fs.readFileSync(readme, 'utf8');
  const start = text.indexOf(README_START);
  const end = text.indexOf(README_END);
  if (start < 0 || end < start) throw new Error(`${readme} has no "${README_START}" ... "${README_END}" markers`);
  fs.writeFileSync(readme, `${text.slice(0, start + README_START.length)}\n${summary}\n${text.slice(end)}`);
}

/** The many-clients rows of the README's summary: light keys against keys at volume, and one request at a time. */
function manyClientsSummary(s: SubjectResults['sections']): [string, string, string, boolean | undefined][] {
  const m = s['many-clients'];
  const at = (count: number) => m?.mixes.find((x) => x.lightKeys === count && x.connections === TARGETS.lightConnections);
  const [small, large] = [at(1_000), at(10_000)];
  const ratio = (x: typeof small) => (x ? `${f2(x.median.ratio)}, p99 ${f2(x.median.lightP99Ms)} ms` : '-');
  const mixes = [small, large].filter((x) => x !== undefined);
  return [
    [`many clients: 1,000 and 10,000 light keys against keys at volume, ${TARGETS.lightConnections} connections (rate ratio, light p99)`,
      `${ratio(small)}; ${ratio(large)}`, `>= ${TARGETS.lightOfVolume}, <= ${TARGETS.lightP99Ms} ms`,
      mixes.length ? mixes.every((x) => x.median.ratio >= TARGETS.lightOfVolume && x.median.lightP99Ms <= TARGETS.lightP99Ms) : undefined],
    ['one request at a time (new connection; keep-alive): added p50 against a key at volume',
      m ? m.oneAtATime.map((o) => `${f2(o.addedP50Ms)} ms`).join('; ') : '-', `<= ${TARGETS.addedP50Ms} ms`,
      m && m.oneAtATime.length ? m.oneAtATime.every((o) => o.addedP50Ms <= TARGETS.addedP50Ms) : undefined],
    ['metering admissions per second, 1 and 2 metering processes', m ? m.metering.map((x) => (x.admissions ? n0(x.admissions.perSecond) : '-')).join(', ') : '-', '', undefined],
  ];
}
