// npm run bench: the full stack under wrk against the raw uWS ceiling, the bare-loop search baseline, build
// scaling on synthetic corpora; writes bench-out/results-*.json and BENCHMARKS.md. Stops all it started.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { parseBenchArgs } from './args.ts';
import { httpPhase } from './http-phase.ts';
import { settleLoadClass } from './load-class.ts';
import { busyness, describeMachine } from './machine.ts';
import { cleanupAll, installCleanupHooks, recordPidsIn } from './processes.ts';
import { writeReport } from './report.ts';
import type { BenchResults } from './results.ts';
import { scaleOne } from './scaling.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

async function main(): Promise<void> {
  const opts = parseBenchArgs(process.argv.slice(2));
  if (opts.render) {
    const results = JSON.parse(fs.readFileSync(opts.render, 'utf8')) as BenchResults;
    writeReport(results, path.resolve(ROOT, opts.report), path.relative(ROOT, path.resolve(opts.render)));
    console.log(`==> wrote ${opts.report} from ${opts.render}`);
    return;
  }
  installCleanupHooks();
  const tmp = process.env.BENCH_TMP ?? fs.mkdtempSync(path.join(os.tmpdir(), 'dict-bench-'));
  fs.mkdirSync(path.join(tmp, 'logs'), { recursive: true });
  recordPidsIn(path.join(tmp, 'pids'));
  console.log(`==> bench temporary directory: ${tmp}`);
  const loadClassNotice = opts.skipHttp ? undefined : settleLoadClass(opts);
  if (loadClassNotice) console.warn(`bench: ${loadClassNotice}`);
  const results: BenchResults = {
    startedAt: new Date().toISOString(),
    finishedAt: '',
    command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
    options: opts,
    machine: await describeMachine(),
    busy: [busyness()],
    errors: [],
    ...(loadClassNotice ? { loadClassNotice } : {}),
  };
  let failed = false;
  try {
    if (!opts.skipHttp) await httpPhase(opts, tmp, results);
  } catch (err) {
    failed = true;
    results.errors.push(`HTTP phase: ${(err as Error).stack ?? String(err)}`);
    console.error(`bench: HTTP phase failed: ${(err as Error).message}`);
  }
  if (!opts.skipScaling) {
    for (const size of opts.scalingSizes) {
      try {
        (results.scaling ??= []).push(await scaleOne(size, tmp, opts.keepTmp));
      } catch (err) {
        failed = true;
        results.errors.push(`build scaling ${size}: ${(err as Error).message}`);
        console.error(`bench: build scaling at ${size} failed: ${(err as Error).message}`);
      }
    }
  }
  results.finishedAt = new Date().toISOString();
  cleanupAll();
  const outDir = path.join(ROOT, 'bench-out');
  fs.mkdirSync(outDir, { recursive: true });
  const json = path.join(outDir, `results-${results.startedAt.replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(json, JSON.stringify(results, null, 2));
  const report = path.resolve(ROOT, opts.report);
  writeReport(results, report, path.relative(ROOT, json));
  console.log(`==> wrote ${path.relative(ROOT, report)} and ${path.relative(ROOT, json)}`);
  if (!opts.keepTmp && !process.env.BENCH_TMP) fs.rmSync(tmp, { recursive: true, force: true });
  if (failed) process.exitCode = 1;
}

main().catch((err: unknown) => {
  console.error(err);
  cleanupAll();
  process.exit(1);
});
