// File modes of what holds personal data: the metering process, started under umask 000, creates DATA_DIR 0700
// and metering.db, its -wal and -shm 0600; a backup is 0600; a database left 0644 is narrowed. Real metering
// process, real nats-server, the ops CLI.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';

import { startNats, type NatsHandle } from '../support/nats.ts';
import { registerKey, tempDir, workerMeter } from './support.ts';

import type { ChildProcess } from 'node:child_process';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');

const modeOf = (file: string): string => (fs.statSync(file).mode & 0o777).toString(8).padStart(4, '0');

/** The metering process under `umask 000`, as a careless service manager might start it. */
async function startUnderOpenUmask(natsUrl: string, dataDir: string): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn('sh', ['-c', 'umask 000 && exec "$0" --import tsx services/metering/main.ts', process.execPath], {
    cwd: ROOT,
    env: { ...process.env, NATS_URL: natsUrl, DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const deadline = Date.now() + 30_000;
  while (!output.includes('"listening"')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`metering did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { child, output: () => output };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

describe('file modes', () => {
  let nats: NatsHandle;
  const children: ChildProcess[] = [];
  before(async () => {
    nats = await startNats();
  });
  after(async () => {
    await Promise.all(children.map(stop));
    await nats.stop();
  });

  it('file modes - DATA_DIR 0700, metering.db, -wal, -shm and backups 0600 under umask 000', async () => {
    const dataDir = path.join(tempDir('modes'), 'var', 'data');
    const { child, output } = await startUnderOpenUmask(nats.url, dataDir);
    children.push(child);
    const meter = await workerMeter(nats.url, 'modes');
    await registerKey(meter);
    await meter.close();
    const db = path.join(dataDir, 'metering.db');
    const backup = path.join(tempDir('modes-backup'), 'copy.db');
    await run(process.execPath, ['--import', 'tsx', 'services/metering/ops/main.ts', 'backup', backup], {
      cwd: ROOT,
      env: { ...process.env, NATS_URL: nats.url },
    });
    const modes = {
      dataDir: modeOf(dataDir),
      parent: modeOf(path.dirname(dataDir)),
      db: modeOf(db),
      wal: modeOf(`${db}-wal`),
      shm: modeOf(`${db}-shm`),
      backup: modeOf(backup),
    };
    await stop(child);
    assert.deepEqual(modes, { dataDir: '0700', parent: '0700', db: '0600', wal: '0600', shm: '0600', backup: '0600' }, output());
  });

  it('file modes - a metering.db left readable by others is narrowed to 0600 at start', async () => {
    const dataDir = tempDir('modes-existing');
    const db = path.join(dataDir, 'metering.db');
    fs.writeFileSync(db, '');
    fs.chmodSync(db, 0o644);
    const { child, output } = await startUnderOpenUmask(nats.url, dataDir);
    children.push(child);
    assert.equal(modeOf(db), '0600', output());
  });
});
