// The real-corpora test snapshot: TEST_SNAPSHOT when set, else built once into .tmp/test-snapshot.sqlite.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const DEFAULT_TEST_SNAPSHOT = path.join(REPO_ROOT, '.tmp', 'test-snapshot.sqlite');

/**
 * Path of a snapshot built from the real corpora (../shared/corpora, or the sample corpus when they are
 * absent). Builds synchronously when the file is missing; the build writes to a temp file and renames,
 * so concurrent test files never see half a snapshot.
 */
export function testSnapshotPath(): string {
  const fromEnv = process.env.TEST_SNAPSHOT;
  if (fromEnv) return fromEnv;
  if (!existsSync(DEFAULT_TEST_SNAPSHOT)) {
    execFileSync(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'snapshot', 'compiler', 'main.ts'), '--out', DEFAULT_TEST_SNAPSHOT], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  return DEFAULT_TEST_SNAPSHOT;
}
