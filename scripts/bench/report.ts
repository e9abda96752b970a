// Writes BENCHMARKS.md from one run's results; the hand-written part comes from scripts/bench/notes.md.
import fs from 'node:fs';
import path from 'node:path';

import { LOAD_CLASSES } from './args.ts';
import type { MatchedRun, MeteringDelta } from './http-bench.ts';
import { workersCpuSeconds } from './proc-stats.ts';
import type { BenchResults } from './results.ts';
import type { LoopResult } from './search-loop.ts';
import { median, microsPerRequest } from './stats.ts';
import { evaluateTargets } from './targets.ts';
import type { WrkResult } from './wrk.ts';

const NOTES = path.join(import.meta.dirname, 'notes.md');

const n0 = (x: number) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en') : '-');
const f2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '-');
const f1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '-');

function table(head: string[], rows: (string | number)[][]): string {
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

/** A command line as a shell would take it (the load class's prefix has a quoted script). */
function shellLine(words: readonly string[]): string {
  return words.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ');
}

function scheduler(m: BenchResults['machine']): string {
  if (m.autogroup === undefined) return 'not recorded (results written before it was)';
  if (m.autogroup === '1') return 'autogroup on (`kernel.sched_autogroup_enabled` = 1: CPU time is shared between sessions first, then between the processes of each)';
  if (m.autogroup === '0') return 'autogroup off (`kernel.sched_autogroup_enabled` = 0)';
  return `\`kernel.sched_autogroup_enabled\` = ${m.autogroup}`;
}

function machine(r: BenchResults): string {
  const m = r.machine;
  // Results written before --load-class existed ran wrk as any process.
  const loadName = r.options.loadClass ?? 'normal';
  const loadClass = LOAD_CLASSES[loadName];
  const busy = r.busy
    .map((b) => `- ${b.at}: load average ${b.loadavg.map((x) => x.toFixed(2)).join(' / ')}, CPU busy ${f1(b.busyPercent)} % over 1 s` +
      (b.top.length ? `; busiest: ${b.top.slice(0, 4).map((t) => `\`${t.replace(/`/g, "'")}\``).join(', ')}` : ''))
    .join('\n');
  return `## Machine and how it was run

- ${m.cpus} CPUs (${m.cpuModel}), ${f1(m.memoryGb)} GB memory, ${m.os}, Linux ${m.kernel}
- Node ${m.node}, SQLite ${m.sqlite}; ${Object.entries(m.packages).map(([k, v]) => `${k} ${v}`).join(', ')}
- ${Object.values(m.tools).join('; ')}
- Scheduler: ${scheduler(m)}
- Command: \`${r.command}\`, ${r.startedAt} to ${r.finishedAt} (${f1((Date.parse(r.finishedAt) - Date.parse(r.startedAt)) / 60000)} min)
- \`${shellLine([...loadClass.prefix, 'wrk'])} -t${r.options.threads} -c${r.options.connections} -d${r.options.durationSeconds}s --latency\` (\`--load-class ${loadName}\`, ${loadClass.says}${r.loadClassNotice ? `; ${r.loadClassNotice}` : ''}), Lua scripts in
  \`scripts/bench/wrk/\` (X-API-Key header${r.options.acceptEncoding ? `, Accept-Encoding: ${r.options.acceptEncoding}` : ''}; the search mix cycles through its paths, thread *t* of *n* taking
  the paths whose index is *t* mod *n*, so that no query repeats within a pass); each endpoint: a warm-up of
  each server, then ${r.options.runs} alternating runs raw, stack, cost-matched raw, raw, stack...; figures are the medians.
- The stack: \`node scripts/bundle.mjs\`, the real snapshot built by \`scripts/publish-snapshot.ts\` into a
  temporary DATA_DIR, a nats-server started by the bench (with \`-m\` for its counters; NATS_URL set so the
  ecosystem leaves nats to it), then \`pm2 start ecosystem.config.cjs\` with its own PM2_HOME, PORT, DATA_DIR,
  HOST=127.0.0.1 and API_WORKERS=${r.options.apiWorkers}: metering and ${r.options.apiWorkers} API workers
  running \`dist/\`. Keys come from POST /api/v1/developers (a fresh key per endpoint and run, so that no run
  meets the daily quota) and are raised to the institution plan with
  \`npm run ops -- developers set-plan <email> institution\`.
- The ceiling: \`scripts/bench/raw-server.ts\`, ${r.options.apiWorkers} uWebSockets.js processes on one port
  (as many as API workers) answering each benchmarked path with the status, headers and body the stack sent
  for it (captured before the runs). For the search mix it replays ${r.queryMix?.rawPool ?? '-'} captured
  search bodies of queries held out of the mix.
- Other load on the machine while it ran (the figures are only as quiet as this):
${busy}
`;
}

function http(r: BenchResults): string {
  if (!r.http?.length) return '';
  const rows = r.http.map((s) => [
    s.title,
    `\`${decodeURIComponent(s.path)}\``,
    n0(s.median.rawRps),
    n0(s.median.stackRps),
    `**${f2(s.median.ratio)}**`,
    f2(s.median.stackP50Ms),
    f2(s.median.stackP99Ms),
    f2(s.median.rawP99Ms),
    String(s.stack.reduce((n, x) => n + x.non2xx, 0) + s.stack.reduce((n, x) => n + x.socketErrors, 0)),
  ]);
  const runs = r.http.map((s) => [
    s.title,
    s.raw.map((x) => n0(x.rps)).join(' / '),
    s.stack.map((x) => n0(x.rps)).join(' / '),
    s.stack.map((x) => f2(x.p99Ms)).join(' / '),
    s.diagnostic ? JSON.stringify(s.diagnostic) : '',
  ]);
  const mix = r.queryMix;
  return `## HTTP: the stack against raw uWS

Medians of ${r.options.runs} runs. Latencies in ms, measured by wrk at ${r.options.connections} connections, whose percentiles
count a long wait as the requests a client sending at a steady rate would have sent meanwhile (coordinated
omission; see the notes below).

${table(['endpoint', 'path', 'raw req/s', 'stack req/s', 'ratio', 'stack p50', 'stack p99', 'raw p99', 'non-2xx + socket errors'], rows)}

Every run (req/s of raw; req/s and p99 of the stack; statuses of a diagnostic run when any non-2xx appeared):

${table(['endpoint', 'raw runs', 'stack runs', 'stack p99 runs', 'diagnostic statuses'], runs)}
${mix ? `
Search mix: ${mix.count.toLocaleString('en')} distinct paths drawn from the snapshot (${Object.entries(mix.byKind).map(([k, v]) => `${k} ${v}`).join(', ')};
${mix.withLanguage} with a language), e.g. ${mix.examples.slice(0, 4).map((e) => `\`${e}\``).join(', ')}. Each run starts at
a different place in the list.
` : ''}`;
}

/** The raw ceiling burning the stack's CPU per request (http-bench.ts, MatchedRun). */
function costMatched(r: BenchResults): string {
  const measured = r.http?.filter((s) => s.matched?.length) ?? [];
  if (!measured.length) return '';
  const rows = measured.map((s) => {
    const cpu = (pick: (m: MatchedRun) => number) => f1(median((s.matched ?? []).map(pick)));
    return [
      s.title, cpu((m) => m.rawMicros), cpu((m) => m.workersMicros), cpu((m) => m.measuredMicros),
      n0(s.median.matchedRps ?? Number.NaN), f2(s.median.matchedP50Ms ?? Number.NaN), `**${f2(s.median.matchedP99Ms ?? Number.NaN)}**`,
      n0(s.median.stackRps), f2(s.median.stackP50Ms), `**${f2(s.median.stackP99Ms)}**`,
    ];
  });
  return `## The tail at the stack's CPU cost

After each stack run the raw ceiling runs once more, on fresh processes that burn CPU before every response
until their own CPU per request is what the API workers used per request in that run (\`raw-server.ts\` with a
CPU cost: \`cpu-matcher.ts\` measures the process every 250 ms and moves the burn, which is timed in CPU time so
that a preemption does not cut it short). That server costs what the workers cost ("matched server CPU" against
"API workers CPU") and has nothing else of the stack: every request alike, next to no garbage, no metering,
request log, pm2 or nats-server. Its p99 is what this much CPU per request gives at ${r.options.connections} connections on
this machine; the stack's p99 above it is what the rest of the stack adds.
Medians of ${r.options.runs} runs; CPU in µs per request; latencies in ms.

${table(['endpoint', 'raw CPU', 'API workers CPU', 'matched server CPU', 'matched req/s', 'matched p50', 'matched p99', 'stack req/s', 'stack p50', 'stack p99'], rows)}
`;
}

function cpu(r: BenchResults): string {
  if (!r.http?.length) return '';
  const names = [...new Set(r.http.flatMap((s) => s.metering.flatMap((m) => Object.keys(m.cpuSeconds ?? {}))))];
  if (!names.length) return '';
  const rows = r.http.map((s) => {
    const seconds = s.metering.reduce((n, m) => n + m.seconds, 0);
    const share = names.map((name) => {
      const used = s.metering.reduce((n, m) => n + (m.cpuSeconds?.[name] ?? 0), 0);
      return `${n0((100 * used) / seconds)} %`;
    });
    const all = names.reduce((n, name) => n + s.metering.reduce((k, m) => k + (m.cpuSeconds?.[name] ?? 0), 0), 0);
    const workerSeconds = s.metering.reduce((n, m) => n + workersCpuSeconds(m.cpuSeconds ?? {}), 0);
    const requests = s.metering.reduce((n, m) => n + m.httpRequests, 0);
    // Results written before the split have no kernel time.
    const kernelSeconds = s.metering.every((m) => m.kernelSeconds)
      ? s.metering.reduce((n, m) => n + Object.values(m.kernelSeconds ?? {}).reduce((a, b) => a + b, 0), 0)
      : Number.NaN;
    return [
      s.title, ...share, `${n0((100 * all) / seconds)} %`, f1(microsPerRequest(workerSeconds, requests)),
      f1(microsPerRequest(kernelSeconds, requests)), f1(microsPerRequest(all, requests)),
    ];
  });
  return `## Where the CPU went during the stack runs

CPU time (user + system, from /proc) of each stack process over the stack runs, as a share of one core
(${r.machine.cpus} cores = ${r.machine.cpus * 100} %); what is left of ${r.machine.cpus * 100} % went to wrk and to everything else on the machine.
The last columns divide the CPU time by the requests served: what one request costs the API workers, the
part of it spent in the kernel on their behalf (system time: the sockets, and the context switches when
wrk's wake-ups preempt them; "-" in results written before it was measured), and what it costs the whole
stack (workers, metering, nats-server, pm2's daemon).

${table(['endpoint', ...names, 'stack total', 'API workers µs/request', 'of which in the kernel', 'stack µs/request'], rows)}
`;
}

/** wrk's and the API workers' waits for a core (WrkResult.waitedMsPerSecond, MeteringDelta.waitedSeconds). */
function waits(r: BenchResults): string {
  const measured = r.http?.filter((s) => s.stack.some((w) => w.waitedMsPerSecond !== undefined)) ?? [];
  if (!measured.length) return '';
  const wrkWait = (runs: readonly WrkResult[]) => f1(median(runs.flatMap((w) => (w.waitedMsPerSecond === undefined ? [] : [w.waitedMsPerSecond]))));
  const rows = measured.map((s) => {
    const workers = median(s.metering.flatMap((m) => (m.waitedSeconds ? [(1000 * Object.values(m.waitedSeconds).reduce((a, b) => a + b, 0)) / m.seconds] : [])));
    return [s.title, wrkWait(s.raw), wrkWait(s.stack), wrkWait((s.matched ?? []).map((m) => m.wrk)), f1(workers), f2(s.median.stackP99Ms)];
  });
  return `## Waits for a core

Milliseconds per second of run time that threads spent runnable but waiting for one of the ${r.machine.cpus} cores
(/proc/<pid>/task/<tid>/schedstat; medians of the runs): wrk's threads, read every 100 ms while it runs, and
the API workers' threads around each stack run. A response that arrives while wrk waits is read late, and its
latency counts the wait: a client on a machine of its own would not see it. The servers' own waits delay
every request waiting on them. wrk ran under \`--load-class ${r.options.loadClass ?? 'normal'}\`.

${table(['endpoint', 'wrk, raw runs', 'wrk, stack runs', 'wrk, cost-matched runs', 'API workers, stack runs', 'stack p99 ms'], rows)}
`;
}

function insideWorkers(r: BenchResults): string {
  const withLog = r.http?.filter((s) => s.metering.some((m) => m.handler)) ?? [];
  if (!withLog.length) return '';
  const rows = withLog.map((s) => {
    const handler = (pick: (h: NonNullable<MeteringDelta['handler']>) => number) => f2(median(s.metering.flatMap((m) => (m.handler ? [pick(m.handler)] : []))));
    const switches = s.metering.flatMap((m) => Object.values(m.preemptions ?? {}).map((n) => n / m.seconds));
    return [
      s.title, handler((h) => h.p50Ms), handler((h) => h.p99Ms), handler((h) => h.p999Ms), handler((h) => h.maxMs),
      f2(s.median.stackP50Ms), f2(s.median.stackP99Ms), n0(median(switches)),
    ];
  });
  return `## Inside the API workers: handler time against the wait

The time each request spent in its worker's handler, from the workers' own request log (the \`ms\` field:
from the request's callback to its response), against the latency wrk measured, which adds the time the
request waited to be read. Medians over the stack runs. The last column is how often the kernel took the core
from a worker that still had work (involuntary context switches, /proc/<pid>/status), per worker and second.

${table(['endpoint', 'handler p50 ms', 'handler p99 ms', 'handler p99.9 ms', 'handler max ms', 'wrk p50 ms', 'wrk p99 ms', 'preemptions/s per worker'], rows)}
`;
}

function metering(r: BenchResults): string {
  if (!r.http?.length) return '';
  let http = 0;
  let seconds = 0;
  let rpc = 0;
  let msgs = 0;
  const rows = r.http.map((s) => {
    const h = s.metering.reduce((n, m) => n + m.httpRequests, 0);
    const t = s.metering.reduce((n, m) => n + m.seconds, 0);
    const calls: Record<string, number> = {};
    for (const m of s.metering) for (const [k, v] of Object.entries(m.meteringRequests)) calls[k] = (calls[k] ?? 0) + v;
    const c = Object.values(calls).reduce((a, b) => a + b, 0);
    const inMsgs = s.metering.reduce((n, m) => n + m.natsInMsgs, 0);
    http += h;
    seconds += t;
    rpc += c;
    msgs += inMsgs;
    return [s.title, n0(h / t), Object.entries(calls).map(([k, v]) => `${k} ${v}`).join(', ') || '0', (c / h).toExponential(2), (inMsgs / h).toExponential(2)];
  });
  return `## Metering

Every metered request is an admission decision taken inside the worker from quota leased from the metering
service; the NATS traffic behind them is counted around each stack run from the metering service's own
\`$SRV.STATS\` (requests per endpoint) and nats-server's \`/varz\` (\`in_msgs\`, every message published,
requests and replies and broadcasts, the bench's own stats requests included).

${table(['endpoint', 'decisions/s', 'metering requests during the runs', 'metering round trips per HTTP request', 'NATS messages per HTTP request'], rows)}

Overall: ${n0(http / seconds)} decisions/s on average over the stack runs; ${(rpc / http).toExponential(2)} metering
round trips and ${(msgs / http).toExponential(2)} NATS messages per HTTP request (${n0(http)} requests).
`;
}

function search(r: BenchResults): string {
  const loop = r.bareLoop;
  if (!loop) return '';
  const mix = r.http?.find((h) => h.id === 'search-mix');
  return `## Search: HTTP against the bare loop

The bare loop is one process calling the reader's \`search()\` (services/api/snapshot/reader.ts) over the same
${loop.queries.toLocaleString('en')} queries for ${f1(loop.seconds)} s (${f1(loop.cycles)} passes), no HTTP, metering or JSON.

${table(['', 'searches/s', 'p50 ms', 'p99 ms', 'max ms'], [
    ['bare loop, 1 process', n0(loop.perSecond), f2(loop.p50Ms), f2(loop.p99Ms), f2(loop.maxMs)],
    ...(mix ? [[`HTTP, ${r.options.apiWorkers} workers, ${r.options.connections} connections`, n0(mix.median.stackRps), f2(mix.median.stackP50Ms), f2(mix.median.stackP99Ms), '-']] : []),
  ])}

Bare loop by kind of query (p50 / p99 ms): ${kindLine(loop)}.${loop.slowest?.length ? ` Slowest: ${loop.slowest.slice(0, 6).map((q) => `\`${q.path}\` ${f1(q.ms)} ms`).join(', ')}.` : ''}
${mix ? `\nHTTP over bare loop: **${f2(mix.median.stackRps / loop.perSecond)}**.\n` : ''}${limits(r)}${keyFilters(r)}${parseGc(r)}${loop.failed ? `
**${loop.failed} searches threw** in the bare loop (over HTTP they are 500 internal_error), e.g.:
${loop.failures.map((f) => `- \`${f}\``).join('\n')}
` : ''}`;
}

/** Why the reader writes its LIMITs into the SQL (scripts/bench/bound-limit.ts). */
function limits(r: BenchResults): string {
  if (!r.limitTimings?.length) return '';
  return `
The reader's statements with the LIMIT bound as a parameter and written into the SQL (\`scripts/bench/bound-limit.ts\`,
mean µs per call): SQLite plans with a LIMIT's value, so a bound one makes it re-prepare the statement on every call.

${table(['statement', 'LIMIT bound µs', 'LIMIT in the SQL µs'], r.limitTimings.map((t) => [t.statement, f2(t.boundUs), f2(t.literalUs)]))}
`;
}

/** What the key filters buy a search (scripts/bench/key-filters.ts). */
function keyFilters(r: BenchResults): string {
  if (!r.keyFilters?.length) return '';
  return `
The reader over the mix with its key filters and without (\`scripts/bench/key-filters.ts\`: ${r.keyFilters[0].passes} alternating passes each
in one process, on readers without the ranked-list cache, so every search is ranked anew). The filters rule out
\`forms\` lookups and full-text statements that cannot find anything. The build stores them in the snapshot and the
reader reads them when it opens it (before session 17 it built them then, from every key and term).

${table(['reader', 'µs per search (median)', 'fastest-slowest pass', 'open ms', 'statements per search', 'of them finding nothing'],
    r.keyFilters.map((k) => [k.variant, f2(k.usPerSearch), `${f2(k.minUs)}-${f2(k.maxUs)}`, f1(k.openMs), k.statementsPerSearch === undefined ? '-' : f2(k.statementsPerSearch), k.emptyPerSearch === undefined ? '-' : f2(k.emptyPerSearch)]))}
`;
}

/** Why query text is read before zod instead of with z.preprocess (scripts/bench/query-parse-gc.ts). */
function parseGc(r: BenchResults): string {
  if (!r.parseGc?.length) return '';
  return `
### Query parsing and the garbage collector

The mix's query strings validated against the search schema two ways, with a 4 MB semi-space as the API workers
have (\`scripts/bench/query-parse-gc.ts\`; GC counts from \`v8.GCProfiler\`). Both read every query to the same
values. Every z.preprocess (a ZodEffects) builds a context with a getter and a bound function per parse; what it
moves to the old generation is garbage that only a full collection finds.

${table(['parser', 'µs per parse', 'scavenges per 10k', 'scavenge ms per 10k', 'bytes promoted per parse', 'full GCs per 10k'],
    r.parseGc.map((g) => [g.variant, f2(g.usPerParse), f1(g.scavengesPer10k), f1(g.scavengeMsPer10k), n0(g.promotedBytesPerParse), f2(g.fullGcsPer10k)]))}
`;
}

function kindLine(loop: LoopResult): string {
  return Object.entries(loop.byKind ?? {}).map(([k, v]) => `${k} ${f2(v.p50Ms)} / ${f2(v.p99Ms)}`).join(', ');
}

function scaling(r: BenchResults): string {
  if (!r.scaling?.length) return '';
  const rows = r.scaling.map((s) => [
    n0(s.entries), f1(s.generateSeconds), f1(s.buildSeconds), n0(s.buildPeakRssMb), f1(s.snapshotMb),
    n0(s.openMs ?? Number.NaN), n0(s.openBuildingFiltersMs ?? Number.NaN), n0(s.typical.perSecond), f2(s.typical.p50Ms), f2(s.typical.p99Ms),
    `${f1(s.worst[0]?.p99Ms ?? Number.NaN)} (${s.worst[0]?.label ?? '-'})`,
  ]);
  const worst = r.scaling.map((s) => `- ${n0(s.entries)}: ${s.worst.slice(0, 6).map((w) => `${w.label} p50 ${f1(w.p50Ms)} / p99 ${f1(w.p99Ms)} ms (total ${n0(w.total)})`).join('; ')}`).join('\n');
  const kinds = r.scaling.map((s) => `- ${n0(s.entries)}: ${kindLine(s.typical)}${s.typical.slowest?.length ? `; slowest: ${s.typical.slowest.slice(0, 5).map((q) => `\`${q.path}\` ${f1(q.ms)} ms`).join(', ')}` : ''}`).join('\n');
  return `## Build scaling

Synthetic corpora in the real formats (\`scripts/generate-synthetic-corpus.ts --entries N\`), built by
\`build/main.ts\` under \`/usr/bin/time -v\` (peak = maximum resident set size). Search: the reader in one
process; typical = 5,000 distinct queries drawn from that snapshot the same way as the mix (more than the reader's
ranked-results cache holds), cycled for 5 s; worst = one-letter prefixes, the most common gloss words, deep
browse pages, each timed 10 times on a reader without the ranked-results cache (the first time may read cold
index pages). "open ms" is a fresh process opening the snapshot, as an API worker does before it listens
(\`scripts/bench/open-snapshot.ts\`): it reads the key filters the build stored, and asks SQLite for its
tokenizers' folds; "open ms, filters built" builds the filters from the indexes instead, as every worker did
before snapshot format 5. \`pm2 reload\` waits up to the ecosystem's \`listen_timeout\` for a worker to be ready
before it restarts the next.

${table(['entries', 'generate s', 'build s', 'build peak MB', 'snapshot MB', 'open ms', 'open ms, filters built', 'typical searches/s', 'typical p50 ms', 'typical p99 ms', 'worst p99 ms (query)'], rows)}

Typical queries by kind (p50 / p99 ms) and the slowest typical queries:
${kinds}

Slowest worst-case queries (p99 of 10 uncached runs is their maximum):
${worst}
`;
}

function memory(r: BenchResults): string {
  if (!r.memory?.length) return '';
  return `## Memory after the run

${table(['process', 'pid', 'RSS MB', 'of which private (RssAnon)', 'of which mapped files (RssFile)', 'PSS MB', 'peak RSS MB'], r.memory.map((m) => [m.name, m.pid, f1(m.rssMb), f1(m.anonMb), f1(m.fileMb), f1(m.pssMb), f1(m.peakRssMb)]))}

RssFile is pages of mapped files: the node binary (about 34 MB in any Node process) and the snapshot, which the
reader memory-maps whole; both are shared between processes through the page cache. PSS divides shared
pages among the processes sharing them. The target is checked against RSS.
${r.restarts ? `\npm2 restarts during the run: ${Object.entries(r.restarts).map(([k, v]) => `${k} ${v}`).join(', ')}.\n` : ''}`;
}

function profile(r: BenchResults): string {
  if (!r.profile) return '';
  return `## Profile: ${r.profile.scenario}

API workers under \`--cpu-prof\` (${n0(r.profile.rps)} req/s under the profiler); share of the busy samples (idle left out) from the start of the load to exit, all workers together, by self time; locations mapped to the TypeScript sources through dist/*.map.

${table(['self %', 'total %', 'function', 'where', 'called from'], r.profile.hot.slice(0, 20).map((h) => [f1(h.selfPercent), f1(h.totalPercent), `\`${h.name}\``, `\`${h.location}\``, h.callers.map((c) => c.replace(/\|/g, '/')).join('<br>')]))}

Profiles kept in ${r.profile.files.map((f) => `\`${f}\``).join(', ')}${
    r.profile.flameGraph
      ? `; their flame graph (the same samples, whole call stacks) in \`${r.profile.flameGraph}\`, with the stacks in folded form (flamegraph.pl, inferno, speedscope) beside it`
      : ''
  }.
`;
}

export function renderReport(r: BenchResults, jsonPath: string): string {
  const targets = evaluateTargets(r);
  const notes = fs.existsSync(NOTES) ? fs.readFileSync(NOTES, 'utf8').trim() : '';
  const errors = r.errors.length ? `## Errors during the run\n\n${r.errors.map((e) => `\`\`\`\n${e.slice(0, 3000)}\n\`\`\``).join('\n\n')}\n` : '';
  const experiment = r.options.experiment
    ? `\n> **Experiment \`${r.options.experiment}\`**: the stack ran through \`scripts/bench/experiment.config.cjs\`, a variant of production; these figures are not production's.\n`
    : '';
  return `# Benchmarks
${experiment}
Generated by \`${r.command}\` on ${r.startedAt.slice(0, 10)} (raw figures: \`${jsonPath}\`). Everything but the last
section is written by the bench; the last section is kept in \`scripts/bench/notes.md\`. Re-run on a quiet
machine for figures to compare: see the other load listed under "Machine".

## Targets (issue 7)

${table(['target', 'measured', ''], targets.map((t) => [t.target, t.measured, t.verdict === 'PASS' ? 'PASS' : t.verdict === 'MISS' ? '**MISS**' : 'n/a']))}

${[machine(r), http(r), costMatched(r), cpu(r), waits(r), insideWorkers(r), metering(r), search(r), scaling(r), memory(r), profile(r), errors].filter(Boolean).join('\n')}
${notes}
`;
}

export function writeReport(r: BenchResults, file: string, jsonPath: string): void {
  fs.writeFileSync(file, renderReport(r, jsonPath));
}
