// CLI of the snapshot build: parses arguments and env, runs the pipeline, prints the report.
import path from 'node:path';

import { ConfigError } from '../../services/shared/env.ts';
import { UsageError, parseBuildArgs } from './args.ts';
import { readBuildEnv } from './config.ts';
import { createProgress } from './progress.ts';
import { formatReport } from './report.ts';
import { buildSnapshot } from './pipeline.ts';
import { snapshotIsCurrent } from './up-to-date.ts';

async function main(): Promise<number> {
  const args = parseBuildArgs(process.argv.slice(2));
  const env = readBuildEnv();
  const out = path.resolve(args.out ?? path.join(env.DATA_DIR, 'snapshots', 'built.sqlite'));
  if (args.ifChanged && snapshotIsCurrent(out, args.corpora, env.CORPORA_DIR)) {
    process.stdout.write(`snapshot ${out} is up to date with its corpora; not rebuilding\n`);
    return 0;
  }
  const { report } = await buildSnapshot({ out, corpora: args.corpora, corporaEnv: env.CORPORA_DIR, date: args.date, progress: createProgress() });
  process.stdout.write(`${formatReport(report)}\nreport: ${out}.report.json\n`);
  return 0;
}

try {
  process.exitCode = await main();
} catch (error) {
  const known = error instanceof UsageError || error instanceof ConfigError || (error instanceof Error && /Error$/.test(error.name) && error.name !== 'Error' && error.name !== 'TypeError');
  process.stderr.write(`\nbuild failed: ${error instanceof Error ? error.message : String(error)}\n`);
  if (!known && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  process.exitCode = 1;
}
