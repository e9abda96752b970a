// Opens the snapshot a worker is configured with after checking the file (check.ts), or, when it fails, the newest
// snapshot in the same folder that passes: a damaged file must not keep the workers down (crash-looping on
// "malformed") while the previous good snapshot sits beside it.
import fs from 'node:fs';
import path from 'node:path';

import { checkSnapshotFile } from './check.ts';
import { openSnapshot } from './reader.ts';

import type { Logger } from '../../services/api/deps.ts';
import type { Snapshot } from './snapshot.ts';

/** The worker serves an older snapshot than the one it was configured with, and why (for /healthz). */
export interface SnapshotFallback {
  wanted: string;
  reason: string;
  serving: string;
}

export interface CheckedSnapshot {
  snapshot: Snapshot;
  /** The file mapped (the target of a symlink), which the worker watches for changes. */
  file: string;
  fallback?: SnapshotFallback;
}

/** Opens `file` if it passes the check; the reason it cannot be used otherwise. */
function tryOpen(file: string, log: Logger): { opened: CheckedSnapshot } | { reason: string } {
  const check = checkSnapshotFile(file);
  if (!check.ok) return { reason: check.reason };
  try {
    const snapshot = openSnapshot(check.file);
    if (check.verified === 'length') {
      log.info({ msg: 'snapshot has no .sha256 beside it (copied by hand?): only its length was checked', file: check.file });
    }
    return { opened: { snapshot, file: check.file } };
  } catch (error) {
    return { reason: (error as Error).message };
  }
}

/**
 * The snapshot at `wanted`, or the newest good `*.sqlite` beside it (by modification time), with a loud log line;
 * throws with every reason when none can be opened.
 */
export function openCheckedSnapshot(wanted: string, log: Logger): CheckedSnapshot {
  const first = tryOpen(wanted, log);
  if ('opened' in first) return first.opened;
  log.error({ msg: `SNAPSHOT FAILED ITS CHECK: ${wanted}: ${first.reason}. Looking for the newest good snapshot beside it.` });
  const dir = path.dirname(path.resolve(wanted));
  const skip = new Set([realpath(wanted)]);
  const reasons = [`${wanted}: ${first.reason}`];
  for (const candidate of candidates(dir, skip)) {
    const tried = tryOpen(candidate, log);
    if ('reason' in tried) {
      reasons.push(`${candidate}: ${tried.reason}`);
      continue;
    }
    const fallback = { wanted, reason: first.reason, serving: tried.opened.file };
    log.error({
      msg: `SERVING AN OLDER SNAPSHOT: ${tried.opened.file} (${tried.opened.snapshot.meta.version}) instead of ${wanted}, which failed its check. /healthz says degraded until a good snapshot is published (npm run publish:snapshot, or --rollback).`,
      reason: first.reason,
    });
    return { ...tried.opened, fallback };
  }
  throw new Error(`no snapshot in ${dir} passes its check:\n  ${reasons.join('\n  ')}`);
}

function realpath(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

/** Regular `*.sqlite` files of `dir` (symlinks resolved, each once), newest first, except those in `skip`. */
function candidates(dir: string, skip: Set<string>): string[] {
  const found = new Map<string, number>();
  for (const name of fs.readdirSync(dir)) {
    if (!name.endsWith('.sqlite')) continue;
    const file = realpath(path.join(dir, name));
    if (skip.has(file) || found.has(file)) continue;
    try {
      const stat = fs.statSync(file);
      if (stat.isFile()) found.set(file, stat.mtimeMs);
    } catch {
      // a dangling symlink
    }
  }
  return [...found].sort((a, b) => b[1] - a[1]).map(([file]) => file);
}
