// Directories and files only the service's user may read: DATA_DIR holds metering.db (names, emails, client
// addresses), its WAL and backups. Modes are set explicitly, not left to the umask (0755/0644 under the default).
import fs from 'node:fs';
import path from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Creates `dir` and any missing parents with mode 0700 (chmod after mkdir: the umask cannot widen or narrow
 * it). Directories that exist are left as they are: an operator may have set them up with reasons of their own.
 */
export function makePrivateDir(dir: string): void {
  const missing: string[] = [];
  for (let at = path.resolve(dir); !fs.existsSync(at); at = path.dirname(at)) missing.unshift(at);
  for (const at of missing) {
    try {
      fs.mkdirSync(at, { mode: PRIVATE_DIR_MODE });
    } catch (error) {
      // Another process made it meanwhile (the workers and metering start together).
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      continue;
    }
    fs.chmodSync(at, PRIVATE_DIR_MODE);
  }
}

/**
 * Makes `file` exist with mode 0600 before another library opens it: SQLite then gives its -wal and -shm files
 * the same mode. An existing file wider than 0600 is narrowed (these are the service's own data files).
 */
export function makePrivateFile(file: string): void {
  const fd = fs.openSync(file, fs.constants.O_RDWR | fs.constants.O_CREAT, PRIVATE_FILE_MODE);
  try {
    if ((fs.fstatSync(fd).mode & 0o777) !== PRIVATE_FILE_MODE) fs.fchmodSync(fd, PRIVATE_FILE_MODE);
  } finally {
    fs.closeSync(fd);
  }
}

/** Group or other permission bits of an existing path, for a warning (undefined when it does not exist). */
export function widerThanPrivate(target: string): number | undefined {
  try {
    const mode = fs.statSync(target).mode & 0o777;
    return (mode & 0o077) === 0 ? undefined : mode;
  } catch {
    return undefined;
  }
}
