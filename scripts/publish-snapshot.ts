// npm run publish:snapshot: build a new snapshot beside the live one, check it, and publish it; `--rollback`
// goes back to the previous one. With SNAPSHOT_STORE=local (one host) it switches this host's current.sqlite
// atomically and rolls the API workers of the stack running for DATA_DIR with `pm2 reload api`; without
// --no-reload (no workers expected, as under npm start) it refuses to start when it finds no running workers,
// and exits non-zero when it could not reload them. With SNAPSHOT_STORE=jetstream (a cluster) it puts the
// snapshot into the cluster's store and announces it; every host's agent (services/snapshots/main.ts) fetches,
// checks, switches and reloads.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';

import { readEnv } from '../services/shared/env.ts';
import { makePrivateDir } from '../services/shared/private-files.ts';
import { readSnapshotsConfig, snapshotsEnvSchema } from '../services/snapshots/config.ts';
import { CURRENT_LINK, linkTarget, PREVIOUS_LINK, pruneSnapshots, snapshotsDirOf, switchTo } from '../services/snapshots/local-snapshots.ts';
import { ReloadError, reloadApiWorkers, stackWithWorkers } from '../services/snapshots/reload-workers.ts';
import { sampleQueries } from '../snapshot/reader/sample-queries.ts';
import { publishToCluster, rollbackCluster } from './publish/cluster.ts';

import type { RunningStack } from '../services/shared/running-stack.ts';

const env = readEnv(snapshotsEnvSchema.extend({ CORPORA_DIR: z.string().optional() }));
const { values: args } = parseArgs({
  options: {
    rollback: { type: 'boolean', default: false },
    'if-changed': { type: 'boolean', default: false },
    'no-reload': { type: 'boolean', default: false },
    corpora: { type: 'string' },
    /** A snapshot already built (with its .sha256 and .downloads beside it) to publish instead of building one. */
    file: { type: 'string' },
  },
});

const root = path.resolve(import.meta.dirname, '..');
const dir = snapshotsDirOf(env.DATA_DIR);
const current = path.join(dir, CURRENT_LINK);
const previous = path.join(dir, PREVIOUS_LINK);
const cluster = env.SNAPSHOT_STORE === 'jetstream';
makePrivateDir(dir);

/** Stops with a message and a non-zero exit. */
function fail(message: string): never {
  console.error(`error: ${message}`);
  process.exit(1);
}

/** The stack whose workers will be reloaded, found before anything is built or switched. */
async function workersToReload(): Promise<RunningStack | undefined> {
  if (args['no-reload'] || cluster) return undefined;
  try {
    return await stackWithWorkers(env.DATA_DIR);
  } catch (error) {
    if (!(error instanceof ReloadError)) throw error;
    return fail(`${error.message}. Nothing was published; pass --no-reload to publish for the next start.`);
  }
}
const stack = await workersToReload();

/**
 * The candidate's sample queries, or a stop with one line saying why they failed and that nothing was switched: a
 * damaged file makes SQLite throw, and its stack says nothing an operator can use.
 */
function checked(file: string): string {
  try {
    return sampleQueries(file);
  } catch (error) {
    const live = linkTarget(current);
    const why = error instanceof Error ? error.message : String(error);
    return fail(`${path.basename(file)} failed its check (${why}); nothing was switched${live ? `: current.sqlite still points at ${path.basename(live)}` : ''}`);
  }
}

async function reload(): Promise<void> {
  if (!stack) return;
  try {
    console.log(`reloaded ${await reloadApiWorkers(stack)} API workers of the stack in ${stack.pm2Home}`);
  } catch (error) {
    if (!(error instanceof ReloadError)) throw error;
    fail(error.message);
  }
}

function build(out: string, ifChanged: boolean): void {
  const corpora = args.corpora ?? env.CORPORA_DIR;
  execFileSync(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'snapshot/compiler/main.ts'), '--out', out, ...(ifChanged ? ['--if-changed'] : []),
      ...(corpora ? ['--corpora', corpora] : [])],
    { stdio: 'inherit', cwd: root },
  );
}

/** A new versioned snapshot in `dir`: built from the corpora, or `--file` copied in with what lies beside it. */
function newSnapshot(): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '');
  const next = path.join(dir, `snapshot-${stamp}.sqlite`);
  if (args.file === undefined) {
    build(next, false);
    return next;
  }
  const from = path.resolve(args.file);
  for (const suffix of ['.sha256', '.downloads']) {
    if (fs.existsSync(`${from}${suffix}`)) fs.cpSync(`${from}${suffix}`, `${next}${suffix}`, { recursive: true });
  }
  fs.copyFileSync(from, next);
  return next;
}

if (cluster && args['if-changed']) {
  // `npm start` on a cluster's host: its snapshot comes from the store, through its agent.
  console.log('snapshot: from the cluster\'s store (SNAPSHOT_STORE=jetstream); the snapshots agent installs it');
} else if (cluster && args.rollback) {
  console.log(await rollbackCluster(readSnapshotsConfig(), (file) => checked(file)).catch((error: Error) => fail(error.message)));
} else if (args.rollback) {
  const back = linkTarget(previous);
  if (!back || !fs.existsSync(back)) fail('there is no previous snapshot to roll back to');
  console.log(`checking ${path.basename(back)}: ${checked(back)}`);
  switchTo(dir, back);
  console.log(`rolled back: current -> ${path.basename(back)}`);
  await reload();
} else if (args['if-changed'] && linkTarget(current) && fs.existsSync(linkTarget(current) as string)) {
  // `npm start`: rebuild in place only when the corpora or the build changed (the build decides); nothing
  // serves yet, so a rename over the versioned file is enough.
  build(linkTarget(current) as string, true);
  console.log(`snapshot ${checked(linkTarget(current) as string)}`);
} else {
  const next = newSnapshot();
  const summary = checked(next);
  console.log(`checking ${path.basename(next)}: ${summary}`);
  if (cluster) {
    console.log(await publishToCluster(readSnapshotsConfig(), dir, path.basename(next), summary));
  } else {
    switchTo(dir, next);
    console.log(`published: current -> ${path.basename(next)}`);
    pruneSnapshots(dir);
    await reload();
  }
}
