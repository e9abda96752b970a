// The bench's reports (scripts/bench/report.ts, targets.ts) from a results file whose every figure is known:
// the verdict of each target, BENCHMARKS.md within its bound, the README's table written between its markers
// only, and --compare's change column.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';

import { parseBenchArgs } from '../../scripts/bench/args.ts';
import { RESULTS_FORMAT } from '../../scripts/bench/context.ts';
import type { BenchResults, SectionResults, SubjectResults } from '../../scripts/bench/context.ts';
import type { RunFigures, ScenarioResult } from '../../scripts/bench/http.ts';
import { README_END, README_START, readmeSummary, renderComparison, renderReport, writeReadmeSummary } from '../../scripts/bench/report.ts';
import type { ScalingRow } from '../../scripts/bench/scaling.ts';
import { SCENARIO_TITLES } from '../../scripts/bench/scenarios.ts';
import type { ScenarioId } from '../../scripts/bench/scenarios.ts';
import type { LoopResult } from '../../scripts/bench/search-loop.ts';
import { evaluateTargets } from '../../scripts/bench/targets.ts';

const BENCHMARKS_MAX_LINES = 250;

function wrkRun(rps: number, p99Ms: number, non2xx = 0): RunFigures {
  return { requests: rps * 10, seconds: 10, rps, p50Ms: p99Ms / 3, p99Ms, maxMs: p99Ms * 2, non2xx, socketErrors: 0, cpuMicros: 10 };
}

function scenario(id: ScenarioId, stackRps: number, p99Ms: number, non2xx = 0): ScenarioResult {
  const runs = [wrkRun(stackRps, p99Ms, non2xx), wrkRun(stackRps, p99Ms), wrkRun(stackRps, p99Ms)];
  return {
    id,
    title: SCENARIO_TITLES[id],
    path: id === 'search-mix' ? '20,000 distinct queries' : `/api/v1/${id}`,
    raw: [wrkRun(100_000, 4), wrkRun(100_000, 4), wrkRun(100_000, 4)],
    stack: runs,
    median: { rawRps: 100_000, stackRps, ratio: stackRps / 100_000, stackP50Ms: p99Ms / 3, stackP99Ms: p99Ms, rawP99Ms: 4, stackMicros: 10, rawMicros: 8 },
    failures: non2xx,
  };
}

function loop(perSecond: number, p99Ms: number): LoopResult {
  return { queries: 5000, seconds: 5, perSecond, p50Ms: p99Ms / 4, p99Ms, maxMs: p99Ms * 2, passes: 3, failed: 0, failures: [] };
}

function scalingRow(corpus: string, syntheticSize: number | undefined, buildSeconds: number, worstP99Ms: number): ScalingRow {
  return {
    corpus,
    ...(syntheticSize ? { syntheticSize } : {}),
    entries: syntheticSize ?? 14_050,
    buildSeconds,
    buildPeakRssMb: 860,
    snapshotMb: 1800,
    openMs: 230,
    typical: loop(20_000, 2.2),
    worst: [{ label: 'prefix "n"', total: 1001, p50Ms: 1, p99Ms: worstP99Ms }],
  };
}

/** Every target met but the stats p99 (6 ms) and the stats non-2xx (3). */
function sections(buildSeconds = 81): SectionResults {
  return {
    http: {
      mix: { count: 20_000, byKind: { exact: 5000, folded: 5000, prefix: 5000, gloss: 5000 }, withLanguage: 10_000, rawPool: 300 },
      scenarios: [
        scenario('search-mix', 30_000, 8.5),
        ...(['search-repeat', 'entry-id', 'entry-slug', 'word-of-the-day', 'languages'] as const).map((id) => scenario(id, 80_000, 3.5)),
        scenario('stats', 80_000, 6, 3),
      ],
      workers: [{ pid: 1, rssMb: 121, peakRssMb: 133 }, { pid: 2, rssMb: 123, peakRssMb: 134 }],
      restarts: { api: 0, metering: 0, nats: 0 },
    },
    search: loop(50_000, 0.4),
    scaling: { rows: [scalingRow('real corpora', undefined, 9, 3), scalingRow('synthetic 1,000,000', 1_000_000, buildSeconds, 1.5)] },
    metering: {
      steady: [{ inFlight: 1, admissions: 400_000, admissionsPerSecond: 900_000, roundTripsPerAdmission: 0.00005 }],
      days: [{ plan: 'free', admissions: 1000, roundTrips: 32 }],
    },
  };
}

function subject(name: string, s: SectionResults): SubjectResults {
  return { subject: { name, root: '/x', commit: 'abc123' }, sections: s, errors: [] };
}

function results(subjects: SubjectResults[]): BenchResults {
  return {
    format: RESULTS_FORMAT,
    startedAt: '2026-11-25T10:00:00.000Z',
    finishedAt: '2026-11-25T10:18:00.000Z',
    command: 'npm run bench',
    options: parseBenchArgs([]),
    machine: { cpus: 2, cpuModel: 'AMD EPYC', memoryGb: 24, kernel: '6.1.0', os: 'Debian GNU/Linux 12', node: 'v20.20.2', sqlite: '3.53.0', packages: {}, tools: {} },
    load: [{ at: '2026-11-25T10:00:00.000Z', loadavg: [0.1, 0.1, 0.1], busyPercent: 1, top: [] }],
    wrkPriority: 'nice -10',
    corpora: '/shared/corpora (../shared/corpora/)',
    subjects,
  };
}

describe('bench report', () => {
  it('bench report - each target is held to its bound, and one not measured says so', () => {
    const rows = evaluateTargets(sections(), 64);
    const missed = rows.filter((r) => r.verdict === 'MISS').map((r) => `${r.target}: ${r.measured}`);
    assert.deepEqual(missed, ['stats: p99 <= 5 ms at 64 connections: 6.00 ms (raw uWS 4.00 ms)', 'stats: no non-2xx: 3']);
    // The fixture has no many-clients section: its targets say so.
    const measured = rows.filter((r) => r.verdict !== 'not measured');
    assert.equal(rows.filter((r) => r.verdict === 'PASS').length, measured.length - 2);
    assert.ok(rows.filter((r) => r.target.startsWith('many clients')).every((r) => r.verdict === 'not measured'));
    assert.deepEqual(rows.find((r) => r.target.startsWith('search mix: >= 0.5')), {
      target: "search mix: >= 0.5 of the bare loop's rate", measured: '0.60 (30,000 against 50,000/s)', verdict: 'PASS',
    });
    const { scaling: _scaling, ...without1M } = sections();
    assert.deepEqual(evaluateTargets(without1M, 64).find((r) => r.target.startsWith('1M build: <=')), { target: '1M build: <= 3 min', measured: '-', verdict: 'not measured' });
  });

  it('bench report - with bare-loop runs in alternation with the mix, the ratio sets the stack against their median', () => {
    const s = sections();
    const mix = s.http?.scenarios.find((x) => x.id === 'search-mix');
    assert.ok(mix);
    mix.bare = [loop(40_000, 0.3), loop(75_000, 0.3), loop(60_000, 0.3)];
    assert.deepEqual(evaluateTargets(s, 64).find((r) => r.target.startsWith('search mix: >= 0.5')), {
      target: "search mix: >= 0.5 of the bare loop's rate", measured: '0.50 (30,000 against 60,000/s)', verdict: 'PASS',
    });
    const report = renderReport(results([subject('working tree', s)]));
    assert.match(report, /The bare loop's runs in alternation with the HTTP runs: 40,000 \/ 75,000 \/ 60,000 searches\/s/);
    assert.match(report, /HTTP over the bare loop: \*\*0\.50\*\*/);
    assert.match(readmeSummary(results([subject('working tree', s)])), /\| 30,000 req\/s, 0\.50 \|/);
  });

  it('bench report - the README table says PASS or MISS on each row with a target, so a miss never reads as a result', () => {
    const summary = readmeSummary(results([subject('working tree', sections())]));
    assert.match(summary, /\| measure \| result \| target \|  \|/);
    assert.match(summary, /\| lookups: p99 at 64 connections \(raw uWS's in the same runs\) \| [^|]+ \| <= 5 ms \| MISS \|/, summary);
    assert.match(summary, /\| search mix: p99 \(raw uWS's in the same runs\) \| [^|]+ \| <= 10 ms \| (PASS|MISS) \|/, summary);
    assert.match(summary, /\| real corpora: build time, peak memory, snapshot size \| [^|]+ \|  \|  \|/, summary);
  });

  it('bench report - BENCHMARKS.md holds the targets, machine, method and every section within its bound', () => {
    const report = renderReport(results([subject('working tree', sections())]));
    const lines = report.split('\n').length;
    assert.ok(lines <= BENCHMARKS_MAX_LINES, `${lines} lines`);
    for (const heading of ['# Benchmarks', '## Results against the targets', '## Machine', '## Method', '## HTTP: the stack against raw uWS',
      '## Search: HTTP against the bare loop', '## Build scaling', '## Metering']) {
      assert.ok(report.includes(`\n${heading}\n`) || report.startsWith(`${heading}\n`), `${heading} in:\n${report}`);
    }
    assert.match(report, /\| stats: p99 <= 5 ms at 64 connections \| 6\.00 ms \(raw uWS 4\.00 ms\) \| \*\*MISS\*\* \|/);
  });

  it('bench report - the README table is written between its markers and nothing else changes', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-readme-'));
    try {
      const readme = path.join(dir, 'README.md');
      const before = `# Title\n\n## Benchmarks\n\n${README_START}\nold table\n${README_END}\n\n## Docs\n`;
      fs.writeFileSync(readme, before);
      const summary = readmeSummary(results([subject('working tree', sections())]));
      writeReadmeSummary(readme, summary);
      assert.equal(fs.readFileSync(readme, 'utf8'), `# Title\n\n## Benchmarks\n\n${README_START}\n${summary}\n${README_END}\n\n## Docs\n`);
      assert.match(summary, /\| lookups: p99 at 64 connections \(raw uWS's in the same runs\) \| 3\.5-6\.0 ms \(4\.0 ms\) \| <= 5 ms \|/);
      assert.match(summary, /\| 1M-entry synthetic corpus: build time, peak memory \| 81 s, 860 MB \| <= 3 min, 1 GB \|/);
      fs.writeFileSync(readme, '# Title\n');
      assert.throws(() => writeReadmeSummary(readme, summary), /has no "<!-- bench:start/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('bench report - --compare sets the two subjects side by side with the change of each figure', () => {
    const report = renderComparison(results([subject('working tree', sections(81)), subject('main', sections(90))]));
    assert.match(report, /^# Benchmarks: working tree \(abc123\) against main \(abc123\)$/m);
    assert.match(report, /\| synthetic 1,000,000: build time \| 81\.00 s \| 90\.00 s \| -10\.0 % better \|/);
    assert.match(report, /\| real corpora: build time \| 9\.00 s \| 9\.00 s \| 0\.0 % \|/);
    assert.match(report, /\| stats: p99 <= 5 ms at 64 connections \| 6\.00 ms \(raw uWS 4\.00 ms\) \| \*\*MISS\*\* \| 6\.00 ms \(raw uWS 4\.00 ms\) \| \*\*MISS\*\* \|/);
  });
});
