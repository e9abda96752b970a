// Loads a module of the code measured (the working tree, or the --compare ref's worktree), so that a bench
// script running from this tree exercises that subject's own reader, meter or build.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** Where a folder lived before the snapshot package and the metering client got their own folders. */
const EARLIER_PLACES: readonly (readonly [string, string])[] = [
  ['snapshot/compiler/', 'build/'],
  ['snapshot/reader/', 'services/api/snapshot/'],
  ['snapshot/format/', 'services/shared/snapshot/'],
  ['services/api/metering-client/', 'services/api/metering/'],
  ['services/shared/metering-protocol/', 'services/shared/metering/'],
];

/** `file` (relative to the subject's root) where that subject keeps it: a --compare ref may predate a move. */
export function subjectPath(root: string, file: string): string {
  if (existsSync(path.join(root, file))) return file;
  for (const [now, before] of EARLIER_PLACES) {
    if (file.startsWith(now) && existsSync(path.join(root, before + file.slice(now.length)))) return before + file.slice(now.length);
  }
  return file;
}

/** The module at `file` (relative to the subject's root), typed as this tree's version of it. */
export async function subjectModule<T>(root: string, file: string): Promise<T> {
  return (await import(pathToFileURL(path.join(root, subjectPath(root, file))).href)) as T;
}
