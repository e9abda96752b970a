// Loads a module of the code measured (the working tree, or the --compare ref's worktree), so that a bench
// script running from this tree exercises that subject's own reader, meter or build.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The module at `file` (relative to the subject's root), typed as this tree's version of it. */
export async function subjectModule<T>(root: string, file: string): Promise<T> {
  return (await import(pathToFileURL(path.join(root, file)).href)) as T;
}
