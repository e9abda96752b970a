// Rotates oversized log files by copy and truncate: file.log is copied to file.log.1 (older copies shift to
// .2 … .N, the oldest deleted), then emptied in place. pm2 appends to its log files (O_APPEND), so it writes on
// at the start of the emptied file with nothing to reopen: no signal to pm2, which would kill pm2-runtime (it
// leaves SIGUSR2 to its default). Lines written between the copy and the truncation, a few milliseconds, are
// lost.
import fs from 'node:fs';
import path from 'node:path';

/** Live log files: pm2 names them <app>-out[-<id>].log and <app>-error[-<id>].log. */
const LIVE_LOG = /\.log$/;

/** Rotates every live log in `dir` larger than `maxBytes`; returns the ones rotated. */
export function rotateOversized(dir: string, maxBytes: number, keep: number): string[] {
  const rotated: string[] = [];
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return rotated;
  }
  for (const name of names) {
    if (!LIVE_LOG.test(name)) continue;
    const file = path.join(dir, name);
    let size: number;
    try {
      size = fs.statSync(file).size;
    } catch {
      continue;
    }
    if (size <= maxBytes) continue;
    rotate(file, keep);
    rotated.push(name);
  }
  return rotated;
}

/** Shifts file.log.i to file.log.(i+1) (deleting file.log.keep), copies file.log to file.log.1 and empties it. */
export function rotate(file: string, keep: number): void {
  fs.rmSync(`${file}.${keep}`, { force: true });
  for (let i = keep - 1; i >= 1; i--) {
    if (fs.existsSync(`${file}.${i}`)) fs.renameSync(`${file}.${i}`, `${file}.${i + 1}`);
  }
  fs.copyFileSync(file, `${file}.1`);
  fs.truncateSync(file, 0);
}
