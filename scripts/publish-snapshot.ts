// npm run publish:snapshot: build a new snapshot beside the live one, check it, switch atomically, roll the
// API workers of the stack running for DATA_DIR with `pm2 reload api`; `--rollback` switches back to the
// previous snapshot. Without --no-reload (no workers expected, as under npm start) it refuses to start when
// it finds no running workers, and exits non-zero when it could not reload them.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';

import { checkSnapshotFile } from '../snapshot/reader/check.ts';
import { openSnapshot } from '../snapshot/reader/reader.ts';
import { readEnv, sharedEnvSchema } from '../services/shared/env.ts';
import { downloadsDirOf } from '../snapshot/format/downloads.ts';
import { findStack, noStackMessage, pm2Interactive, stackProcesses } from '../services/shared/running-stack.ts';

import type { RunningStack } from '../services/shared/running-stack.ts';
import { makePrivateDir } from '../services/shared/private-files.ts';
import { SHA256_SUFFIX } from '../snapshot/format/file-hash.ts';

const env = readEnv(sharedEnvSchema.extend({ CORPORA_DIR: z.string().optional() }));
const { values: args } = parseArgs({
  options: {
    rollback: { type: 'boolean', default: false },
    'if-changed': { type: 'boolean', default: false },
    'no-reload': { type: 'boolean', default: false },
    corpora: { type: 'string' },
  },
});

const root = path.resolve(import.meta.dirname, '..');
const dir = path.resolve(env.DATA_DIR, 'snapshots');
const current = path.join(dir, 'current.sqlite');
const previous = path.join(dir, 'previous.sqlite');
makePrivateDir(dir);

/** Stops with a message and a non-zero exit. */
function fail(message: string): never {
  console.error(`error: ${message}`);
  process.exit(1);
}

/** The stack whose workers will be reloaded, found before anything is built or switched. */
async function workersToReload(): Promise<RunningStack | undefined> {
  if (args['no-reload']) return undefined;
  const stack = await findStack(env.DATA_DIR);
  if (!stack) fail(`${noStackMessage(env.DATA_DIR)} Nothing was published; pass --no-reload to publish for the next start.`);
  const api = (await stackProcesses(stack, process.env)).filter((p) => p.name === 'api');
  if (!api.some((p) => p.pm2_env.status === 'online')) {
    fail(`the stack for DATA_DIR=${stack.dataDir} runs no API worker. Nothing was published; pass --no-reload to publish for the next start.`);
  }
  return stack;
}
const stack = await workersToReload();

/** Points `link` at `target` atomically: a reader opening `link` sees the old or the new file, never neither. */
function relink(link: string, target: string): void {
  const tmp = `${link}.${process.pid}.tmp`;
  fs.rmSync(tmp, { force: true });
  fs.symlinkSync(path.basename(target), tmp);
  fs.renameSync(tmp, link);
}

function target(link: string): string | undefined {
  try {
    return path.resolve(dir, fs.readlinkSync(link));
  } catch {
    return undefined;
  }
}

/**
 * The candidate's check (`check`), or a stop with one line saying why it failed and that nothing was switched: a
 * damaged file makes SQLite throw, and its stack says nothing an operator can use.
 */
function checked(file: string): string {
  try {
    return check(file);
  } catch (error) {
    const live = target(current);
    const why = error instanceof Error ? error.message : String(error);
    return fail(`${path.basename(file)} failed its check (${why}); nothing was switched${live ? `: current.sqlite still points at ${path.basename(live)}` : ''}`);
  }
}

/** Checks the candidate's file as a worker will, then opens it read-only and checks it answers like a live snapshot would. */
function check(file: string): string {
  const verified = checkSnapshotFile(file);
  if (!verified.ok) throw new Error(`${file}: ${verified.reason}`);
  const snapshot = openSnapshot(file);
  try {
    const languages = snapshot.languages();
    const active = languages.filter((l) => l.status === 'active');
    if (active.length === 0) throw new Error('no active language');
    for (const language of active) {
      if (language.wordCount === 0) throw new Error(`language ${language.code} has no words`);
      const page = snapshot.search({ language: language.code, page: 1, limit: 5 });
      if (page.items.length === 0) throw new Error(`browsing ${language.code} returned nothing`);
      const first = page.items[0];
      const found = snapshot.search({ q: first.exactForm, language: language.code, page: 1, limit: 5 });
      if (!found.items.some((w) => w.id === first.id)) throw new Error(`searching "${first.exactForm}" misses it`);
      if (!snapshot.entryJson(String(first.id)) || !snapshot.entryJson(first.slug)) {
        throw new Error(`entry ${first.id} cannot be fetched`);
      }
    }
    JSON.parse(snapshot.statsJson());
    // Its downloads are opened as a worker opens them: an index of this version, every file of the listed size.
    const downloads = snapshot.downloads?.();
    if (!downloads?.index) throw new Error(`no downloads: ${downloads?.problem ?? 'not read'}`);
    for (const language of active) {
      if (!downloads.index.files.some((f) => f.language === language.code)) throw new Error(`no download for ${language.code}`);
    }
    const total = active.reduce((n, l) => n + l.wordCount, 0);
    return `${snapshot.meta.version}: ${active.map((l) => `${l.code} ${l.wordCount}`).join(', ')} (${total} entries, ${downloads.index.files.length} downloads)`;
  } finally {
    snapshot.close();
  }
}

/** Rolls the stack's API workers one by one (each signals ready once listening) and checks all came back. */
async function reload(): Promise<void> {
  if (!stack) return;
  const retry = 'They serve the previous snapshot until they restart: retry with `npm run pm2 -- reload api`.';
  const code = await pm2Interactive(stack, ['reload', 'api'], process.env);
  if (code !== 0) fail(`the snapshot is switched, but \`pm2 reload api\` failed (exit ${code}). ${retry}`);
  const api = (await stackProcesses(stack, process.env)).filter((p) => p.name === 'api');
  const down = api.filter((p) => p.pm2_env.status !== 'online');
  if (api.length === 0 || down.length > 0) {
    fail(`the snapshot is switched, but ${down.length || 'no'} API worker(s) are not online after the reload. ${retry}`);
  }
  console.log(`reloaded ${api.length} API workers of the stack in ${stack.pm2Home}`);
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

function prune(): void {
  const keep = new Set([target(current), target(previous)].filter(Boolean).map((p) => path.basename(p as string)));
  for (const name of fs.readdirSync(dir)) {
    if (/^snapshot-.*\.sqlite$/.test(name) && !keep.has(name)) {
      fs.rmSync(path.join(dir, name), { force: true });
      fs.rmSync(path.join(dir, `${name}.report.json`), { force: true });
      fs.rmSync(downloadsDirOf(path.join(dir, name)), { recursive: true, force: true });
      fs.rmSync(path.join(dir, `${name}${SHA256_SUFFIX}`), { force: true });
    }
  }
}

if (args.rollback) {
  const back = target(previous);
  const live = target(current);
  if (!back || !fs.existsSync(back)) {
    console.error('error: there is no previous snapshot to roll back to');
    process.exit(1);
  }
  console.log(`checking ${path.basename(back)}: ${checked(back)}`);
  relink(current, back);
  if (live) relink(previous, live);
  console.log(`rolled back: current -> ${path.basename(back)}`);
  await reload();
} else if (args['if-changed'] && target(current) && fs.existsSync(target(current) as string)) {
  // `npm start`: rebuild in place only when the corpora or the build changed (the build decides); nothing
  // serves yet, so a rename over the versioned file is enough.
  build(target(current) as string, true);
  console.log(`snapshot ${checked(target(current) as string)}`);
} else {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '');
  const next = path.join(dir, `snapshot-${stamp}.sqlite`);
  build(next, false);
  console.log(`checking ${path.basename(next)}: ${checked(next)}`);
  const live = target(current);
  relink(current, next);
  if (live && live !== next) relink(previous, live);
  console.log(`published: current -> ${path.basename(next)}`);
  prune();
  await reload();
}
