// `npm run publish:snapshot -- --rollback` onto a damaged previous snapshot: one line saying which file failed its
// check and why, that nothing was switched and what current.sqlite still serves; no stack, exit 1, the links as
// they were. The real script (--no-reload: no stack runs), a copy of the test snapshot, damaged files.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';

import { testSnapshotPath } from '../support/snapshot.ts';
import { tempDir } from '../support/temp-dir.ts';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');

/** DATA_DIR/snapshots with current.sqlite -> a good copy and previous.sqlite -> `damaged` (written by the test). */
function snapshotsWith(damage: (file: string) => void): { dataDir: string; dir: string } {
  const dataDir = tempDir('rollback');
  const dir = path.join(dataDir, 'snapshots');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const good = path.join(dir, 'snapshot-good.sqlite');
  fs.copyFileSync(testSnapshotPath(), good);
  for (const suffix of ['.sha256']) {
    if (fs.existsSync(`${testSnapshotPath()}${suffix}`)) fs.copyFileSync(`${testSnapshotPath()}${suffix}`, `${good}${suffix}`);
  }
  fs.cpSync(`${testSnapshotPath()}.downloads`, `${good}.downloads`, { recursive: true });
  const bad = path.join(dir, 'snapshot-bad.sqlite');
  damage(bad);
  fs.symlinkSync('snapshot-good.sqlite', path.join(dir, 'current.sqlite'));
  fs.symlinkSync('snapshot-bad.sqlite', path.join(dir, 'previous.sqlite'));
  return { dataDir, dir };
}

async function rollback(dataDir: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return run(process.execPath, ['--import', 'tsx', 'scripts/publish-snapshot.ts', '--rollback', '--no-reload'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

const DAMAGES: [string, (file: string) => void][] = [
  ['bytes that are not SQLite', (file) => fs.writeFileSync(file, Buffer.alloc(64 * 1024, 0x5a))],
  ['a copy cut short', (file) => fs.writeFileSync(file, fs.readFileSync(testSnapshotPath()).subarray(0, 200_000))],
  [
    'a copy whose pages were overwritten past its header',
    (file) => {
      const bytes = Buffer.from(fs.readFileSync(testSnapshotPath()));
      bytes.fill(0xa5, 4096, Math.min(bytes.length, 4096 * 64));
      fs.writeFileSync(file, bytes);
    },
  ],
];

describe('publish:snapshot --rollback', () => {
  for (const [what, damage] of DAMAGES) {
    test(`publish:snapshot --rollback - onto ${what}: one clear line, nothing switched, exit 1`, async () => {
      const { dataDir, dir } = snapshotsWith(damage);
      const out = await rollback(dataDir);
      assert.equal(out.code, 1, `${out.stdout}${out.stderr}`);
      assert.match(out.stderr, /^error: snapshot-bad\.sqlite failed its check \(.+\); nothing was switched: current\.sqlite still points at snapshot-good\.sqlite\n$/, out.stderr);
      assert.doesNotMatch(out.stderr, /\n\s+at /, 'no stack');
      assert.equal(fs.readlinkSync(path.join(dir, 'current.sqlite')), 'snapshot-good.sqlite');
      assert.equal(fs.readlinkSync(path.join(dir, 'previous.sqlite')), 'snapshot-bad.sqlite');
    });
  }
});
