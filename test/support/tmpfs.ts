// A small tmpfs for tests of a full or read-only DATA_DIR: the kernel's own ENOSPC and EROFS, not a simulation.
// Needs mount rights (root with CAP_SYS_ADMIN, as in CI's container); without them the caller skips.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface Tmpfs {
  dir: string;
  /** Remounts it read-only or read-write (the files stay). */
  remount(mode: 'ro' | 'rw'): void;
  /** Writes a file until the filesystem is full; returns its path (delete it to free the space). */
  fill(): string;
  unmount(): void;
}

/** A tmpfs of `bytes`, or the reason it cannot be mounted here. */
export function mountTmpfs(bytes: number): Tmpfs | string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dict-tmpfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes},mode=0700`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    return `cannot mount a tmpfs here (${String((error as { stderr?: Buffer }).stderr ?? (error as Error).message).trim()})`;
  }
  return {
    dir,
    remount(mode) {
      execFileSync('mount', ['-o', `remount,${mode}`, dir], { stdio: 'pipe' });
    },
    fill() {
      const file = path.join(dir, 'filler');
      const fd = fs.openSync(file, 'w');
      const chunk = Buffer.alloc(64 * 1024, 1);
      try {
        for (;;) fs.writeSync(fd, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      }
      // The last bytes: a partial page may still fit after the 64 KiB chunks stop.
      try {
        for (;;) fs.writeSync(fd, chunk.subarray(0, 512));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      } finally {
        fs.closeSync(fd);
      }
      return file;
    },
    unmount() {
      execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
