// npm run bench: runs each section (sections.ts) on the working tree, and on a --compare ref after it; writes
// bench-out/results-*.json, then BENCHMARKS.md and the README's table (a full run) or bench-out/*.md.
// Everything it starts is stopped on exit, failure or Ctrl-C.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { isFullRun, parseBenchArgs } from './args.ts';
import { locateCorpora } from '../../snapshot/compiler/inputs.ts';
import type { BenchOptions } from './args.ts';
import { RESULTS_FORMAT } from './context.ts';
import type { BenchContext, BenchResults, BuiltSnapshot, Section, SectionId, Subject, SubjectResults } from './context.ts';
import { busyness, describeMachine } from './machine.ts';
import { ROOT, cleanupAll, installCleanupHooks, recordPidsIn } from './processes.ts';
import { readmeSummary, renderComparison, renderReport, writeReadmeSummary } from './report.ts';
import { timedBuild } from './scaling.ts';
import { SECTIONS } from './sections.ts';
import { checkoutRef, workingTree } from './subject.ts';
import { drawWorkload } from './workload.ts';
import type { Workload } from './workload.ts';
import { clientPriority } from './wrk.ts';

const OUT_DIR = path.join(ROOT, 'bench-out');

async function runSection<K extends SectionId>(section: Section<K>, ctx: BenchContext): Promise<void> {
  ctx.results[section.id] = await section.run(ctx);
}

/** Writes the reports: BENCHMARKS.md and the README's table for a full run, bench-out/*.md otherwise. */
function publish(r: BenchResults, full: boolean): void {
  if (r.subjects.length > 1) {
    fs.writeFileSync(path.join(OUT_DIR, 'compare.md'), renderComparison(r));
    console.log('==> wrote bench-out/compare.md');
  }
  const summary = readmeSummary(r);
  if (full) {
    fs.writeFileSync(path.join(ROOT, 'BENCHMARKS.md'), renderReport(r));
    writeReadmeSummary(path.join(ROOT, 'README.md'), summary);
    console.log('==> wrote BENCHMARKS.md and the benchmark table of README.md');
  } else {
    fs.writeFileSync(path.join(OUT_DIR, 'report.md'), renderReport(r));
    console.log('==> wrote bench-out/report.md (BENCHMARKS.md and README.md are written by full runs only)');
  }
  console.log(`\n${summary}`);
}

async function measure(opts: BenchOptions, argv: readonly string[]): Promise<BenchResults> {
  const tmp = process.env.BENCH_TMP ?? fs.mkdtempSync(path.join(os.tmpdir(), 'dict-bench-'));
  recordPidsIn(path.join(tmp, 'pids'));
  const log = path.join(tmp, 'bench.log');
  console.log(`==> temporary directory ${tmp}, every command's output in ${log}`);
  const wanted = SECTIONS.filter((s) => !opts.only || opts.only.includes(s.id));
  const unknown = opts.only?.filter((id) => !SECTIONS.some((s) => s.id === id));
  if (unknown?.length || wanted.length === 0) throw new Error(`--only: no section ${unknown?.join(', ')}; sections: ${SECTIONS.map((s) => s.id).join(', ')}`);
  const client = clientPriority();
  // Located once, as the working tree's build would, and given to every subject's build: a --compare
  // worktree has no ../shared/corpora beside it.
  const corpora = locateCorpora(opts.corpora, process.env.CORPORA_DIR);
  const results: BenchResults = {
    format: RESULTS_FORMAT,
    startedAt: new Date().toISOString(),
    finishedAt: '',
    command: `npm run bench${argv.length ? ` -- ${argv.join(' ')}` : ''}`,
    options: opts,
    machine: await describeMachine(),
    load: [busyness()],
    wrkPriority: client.says,
    corpora: `${corpora.dir} (${corpora.why})`,
    subjects: [],
  };
  const prepare: (() => Promise<Subject>)[] = [() => workingTree(log)];
  if (opts.compare) {
    const ref = opts.compare;
    prepare.push(() => checkoutRef(ref, path.join(tmp, 'compare-tree'), log));
  }
  let workload: Workload | undefined;
  for (const [i, make] of prepare.entries()) {
    const entry: SubjectResults = { subject: { name: i === 0 ? 'working tree' : (opts.compare ?? ''), root: '', commit: '' }, sections: {}, errors: [] };
    results.subjects.push(entry);
    try {
      entry.subject = await make();
    } catch (err) {
      entry.errors.push(`preparing ${entry.subject.name}: ${(err as Error).message}`);
      continue;
    }
    const subject = entry.subject;
    const dir = path.join(tmp, `subject-${i}`);
    fs.mkdirSync(dir, { recursive: true });
    let real: Promise<BuiltSnapshot> | undefined;
    const ctx: BenchContext = {
      opts,
      subject,
      client,
      dir,
      log,
      results: entry.sections,
      realSnapshot: () => (real ??= timedBuild(subject.root, corpora.dir, path.join(dir, 'real.sqlite'), log)),
      workload: async () => (workload ??= drawWorkload((await ctx.realSnapshot()).path, opts.queries, tmp)),
    };
    console.log(`==> measuring ${subject.name} (${subject.commit})`);
    for (const section of wanted) {
      try {
        await runSection(section as Section<SectionId>, ctx);
      } catch (err) {
        entry.errors.push(`${section.id}: ${(err as Error).stack ?? String(err)}`);
        console.error(`bench: ${section.id} failed on ${subject.name}: ${(err as Error).message}`);
      }
    }
  }
  results.load.push(busyness());
  results.finishedAt = new Date().toISOString();
  // Stops what the sections started and removes the --compare worktree before its directory goes.
  cleanupAll();
  if (!opts.keepTmp && !process.env.BENCH_TMP) fs.rmSync(tmp, { recursive: true, force: true });
  return results;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const opts = parseBenchArgs(argv);
  fs.mkdirSync(OUT_DIR, { recursive: true });
  if (opts.render) {
    const r = JSON.parse(fs.readFileSync(opts.render, 'utf8')) as BenchResults;
    if (r.format !== RESULTS_FORMAT) throw new Error(`${opts.render} is not a results file of format ${RESULTS_FORMAT}`);
    publish(r, true);
    return;
  }
  installCleanupHooks();
  const results = await measure(opts, argv);
  const json = path.join(OUT_DIR, `results-${results.startedAt.replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(json, JSON.stringify(results, null, 2));
  console.log(`==> wrote ${path.relative(ROOT, json)}`);
  publish(results, isFullRun(opts));
  if (results.subjects.some((s) => s.errors.length)) process.exitCode = 1;
}

main().catch((err: unknown) => {
  console.error(err);
  cleanupAll();
  process.exit(1);
});
