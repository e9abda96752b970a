// A host's snapshots under DATA_DIR/snapshots: versioned files (each with its .sha256 and .downloads beside it)
// and the two links the workers and a rollback read, current.sqlite and previous.sqlite.
import fs from 'node:fs';
import path from 'node:path';

import { downloadsDirOf } from '../../snapshot/format/downloads.ts';
import { SHA256_SUFFIX } from '../../snapshot/format/file-hash.ts';

export const CURRENT_LINK = 'current.sqlite';
export const PREVIOUS_LINK = 'previous.sqlite';

export function snapshotsDirOf(dataDir: string): string {
  return path.resolve(dataDir, 'snapshots');
}

/** Points `link` at `target` atomically: a reader opening `link` sees the old or the new file, never neither. */
export function relink(link: string, target: string): void {
  const tmp = `${link}.${process.pid}.tmp`;
  fs.rmSync(tmp, { force: true });
  fs.symlinkSync(path.basename(target), tmp);
  fs.renameSync(tmp, link);
}

/** The file `link` names, resolved in its directory; undefined when there is no such link. */
export function linkTarget(link: string): string | undefined {
  try {
    return path.resolve(path.dirname(link), fs.readlinkSync(link));
  } catch {
    return undefined;
  }
}

/** Makes `file` current and what was current previous (unless it is `file` itself). */
export function switchTo(dir: string, file: string): void {
  const live = linkTarget(path.join(dir, CURRENT_LINK));
  relink(path.join(dir, CURRENT_LINK), file);
  if (live && live !== file) relink(path.join(dir, PREVIOUS_LINK), live);
}

/** Deletes every versioned snapshot (and what lies beside it) that neither link names. */
export function pruneSnapshots(dir: string): void {
  const keep = new Set([linkTarget(path.join(dir, CURRENT_LINK)), linkTarget(path.join(dir, PREVIOUS_LINK))].filter(Boolean).map((p) => path.basename(p as string)));
  for (const name of fs.readdirSync(dir)) {
    if (/^snapshot-.*\.sqlite$/.test(name) && !keep.has(name)) {
      fs.rmSync(path.join(dir, name), { force: true });
      fs.rmSync(path.join(dir, `${name}.report.json`), { force: true });
      fs.rmSync(downloadsDirOf(path.join(dir, name)), { recursive: true, force: true });
      fs.rmSync(path.join(dir, `${name}${SHA256_SUFFIX}`), { force: true });
    }
  }
}
