// Rotates oversized log files by renaming: file.log → file.log.1 → … → file.log.N, the oldest deleted. The
// writer keeps appending to the renamed file until it reopens its path (pm2 does on SIGUSR2), so no line is
// lost in between, and nothing is copied.
import fs from 'node:fs';
import path from 'node:path';

/** Live log files: pm2 names them <app>-out[-<id>].log and <app>-error[-<id>].log. */
const LIVE_LOG = /\.log$/;

/** Renames every live log in `dir` larger than `maxBytes`; returns the ones rotated. */
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

/** Shifts file.log.i to file.log.(i+1) (deleting file.log.keep), then file.log to file.log.1. */
export function rotate(file: string, keep: number): void {
  fs.rmSync(`${file}.${keep}`, { force: true });
  for (let i = keep - 1; i >= 1; i--) {
    if (fs.existsSync(`${file}.${i}`)) fs.renameSync(`${file}.${i}`, `${file}.${i + 1}`);
  }
  fs.renameSync(file, `${file}.1`);
}
