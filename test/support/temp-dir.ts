// Temporary directories of a test file, removed when its process exits (node:test runs each test file in a
// process of its own), whether its tests passed, failed or never reached their own cleanup.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const made: string[] = [];

/** A fresh directory under the system's temp folder, named `<prefix>XXXXXX`. */
export function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  if (made.length === 0) process.once('exit', removeAll);
  made.push(dir);
  return dir;
}

function removeAll(): void {
  // A child process killed without a wait may still be closing its files: force, and retry briefly.
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
}
