// The code a run measures: the working tree, and for --compare a git ref checked out in a temporary git
// worktree with its own node_modules; each bundled into its dist/ as production runs it.
import fs from 'node:fs';
import path from 'node:path';

import type { Subject } from './context.ts';
import { ROOT, onCleanup, run, runAsync } from './processes.ts';

function git(args: readonly string[], cwd = ROOT): string {
  return run('git', args, { cwd, quiet: true }).trim();
}

async function bundle(root: string, log: string): Promise<void> {
  const { code, stderr } = await runAsync(process.execPath, ['scripts/bundle.mjs'], { cwd: root, log });
  if (code !== 0) throw new Error(`bundling ${root} failed:\n${stderr}`);
}

export async function workingTree(log: string): Promise<Subject> {
  await bundle(ROOT, log);
  const dirty = git(['status', '--porcelain']) !== '';
  return { name: 'working tree', root: ROOT, commit: `${git(['rev-parse', '--short=12', 'HEAD'])}${dirty ? ' + uncommitted changes' : ''}` };
}

/**
 * `ref` checked out in `dir` (removed again when the bench exits). Its node_modules is a copy of this tree's
 * when the two lock files are the same, else `npm ci`.
 */
export async function checkoutRef(ref: string, dir: string, log: string): Promise<Subject> {
  let commit: string;
  try {
    commit = git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  } catch {
    throw new Error(`--compare ${ref}: no such commit in this repository`);
  }
  console.log(`==> checking out ${ref} (${commit.slice(0, 12)}) in ${dir}`);
  git(['worktree', 'add', '--detach', dir, commit]);
  onCleanup(() => {
    run('git', ['worktree', 'remove', '--force', dir], { cwd: ROOT, quiet: true });
  });
  const lock = (root: string) => fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8');
  const install = lock(ROOT) === lock(dir)
    ? await runAsync('cp', ['-a', '--reflink=auto', path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules')], { log })
    : await runAsync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, log });
  if (install.code !== 0) throw new Error(`installing the dependencies of ${ref} failed:\n${install.stderr}`);
  await bundle(dir, log);
  return { name: ref, root: dir, commit: commit.slice(0, 12) };
}
