// ops backup only makes new files: over the real metering process, nats-server and the ops CLI, a backup onto an
// existing path (a file that is not SQLite, a symlink to one, a dangling symlink) is refused as the operator's
// error, the path is left as it was, and metering keeps serving.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { startBackend, type Backend } from '../support/stack.ts';
import { tempDir } from '../support/temp-dir.ts';

const EXIT_REFUSED = 1;

describe('ops backup', () => {
  let backend: Backend;
  let dir: string;

  before(async () => {
    backend = await startBackend();
    dir = tempDir('backup-target');
  });
  after(() => backend.stop());

  /** Metering still answers (the ops CLI lists developers). */
  async function stillServing(): Promise<void> {
    const listed = await backend.ops('developers', 'list');
    assert.equal(listed.code, 0, `${listed.stdout}${listed.stderr}\n${backend.meteringLogs()}`);
  }

  test('ops backup - an existing file that is not SQLite is refused as the operator\'s error; metering serves on', async () => {
    const notes = path.join(dir, 'notes.txt');
    fs.writeFileSync(notes, 'operator notes\n', { mode: 0o644 });
    const out = await backend.ops('backup', notes);
    assert.equal(out.code, EXIT_REFUSED, `${out.stdout}${out.stderr}`);
    assert.match(out.stderr, /already exists: a backup is written to a new file only/);
    assert.equal(fs.readFileSync(notes, 'utf8'), 'operator notes\n');
    assert.equal(fs.statSync(notes).mode & 0o777, 0o644, 'its mode is left as it was');
    await stillServing();
    assert.doesNotMatch(backend.meteringLogs(), /exiting|fatal/i);
  });

  test('ops backup - a symlink is never followed, to a file or to nowhere', async () => {
    const target = path.join(dir, 'victim.txt');
    fs.writeFileSync(target, 'keep me\n', { mode: 0o644 });
    const link = path.join(dir, 'link.db');
    fs.symlinkSync(target, link);
    const dangling = path.join(dir, 'dangling.db');
    const nowhere = path.join(dir, 'created-through-link.db');
    fs.symlinkSync(nowhere, dangling);
    for (const file of [link, dangling]) {
      const out = await backend.ops('backup', file);
      assert.equal(out.code, EXIT_REFUSED, `${file}: ${out.stdout}${out.stderr}`);
      assert.match(out.stderr, /already exists/);
    }
    assert.equal(fs.readFileSync(target, 'utf8'), 'keep me\n');
    assert.equal(fs.statSync(target).mode & 0o777, 0o644);
    assert.equal(fs.existsSync(nowhere), false, 'nothing is created through a dangling link');
    await stillServing();
  });

  test('ops backup - a new path gets a 0600 copy, and the same path a second time is refused', async () => {
    const file = path.join(dir, 'copy.db');
    const first = await backend.ops('backup', file);
    assert.equal(first.code, 0, `${first.stdout}${first.stderr}`);
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    const size = fs.statSync(file).size;
    const second = await backend.ops('backup', file);
    assert.equal(second.code, EXIT_REFUSED, `${second.stdout}${second.stderr}`);
    assert.equal(fs.statSync(file).size, size);
    assert.deepEqual(
      fs.readdirSync(dir).filter((f) => f.startsWith('.backup-')),
      [],
      'no staging directory is left behind',
    );
    await stillServing();
  });

  test('ops backup - a directory that does not exist is refused', async () => {
    const out = await backend.ops('backup', path.join(dir, 'missing', 'copy.db'));
    assert.equal(out.code, EXIT_REFUSED, `${out.stdout}${out.stderr}`);
    assert.match(out.stderr, /no directory/);
    await stillServing();
  });
});
