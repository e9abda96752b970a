// A NATS cluster with JetStream for tests: the members' configs written by the operator's own
// `npm run nats:cluster-config` (one DATA_DIR per host, sharing one credentials.json), nats-server started per
// member, and snapshots seeded into hosts' DATA_DIRs as a host that has run before holds them.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { connect } from 'nats';

import { downloadsDirOf } from '../../snapshot/format/downloads.ts';
import { natsAuthFor } from '../../services/shared/nats-auth/credentials.ts';
import { testSnapshotPath } from '../support/snapshot.ts';

import type { ChildProcess } from 'node:child_process';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export interface MemberSpec {
  name: string;
  address: string;
  /** The host's DATA_DIR: its credentials, its cluster.conf and JetStream store under nats/. */
  dataDir: string;
}

/**
 * Writes each member's config with scripts/nats-cluster-config.ts: the first makes the cluster's credentials,
 * which are copied to the others' DATA_DIR as an operator copies them. Returns each member's config file.
 */
export function writeClusterConfigs(members: readonly MemberSpec[], clientPort: number, clusterPort: number, wrap: (m: MemberSpec) => string[] = () => []): string[] {
  const addresses = members.map((m) => m.address).join(',');
  return members.map((member, i) => {
    if (i > 0) {
      fs.mkdirSync(path.join(member.dataDir, 'nats'), { recursive: true, mode: 0o700 });
      fs.copyFileSync(path.join(members[0].dataDir, 'nats/credentials.json'), path.join(member.dataDir, 'nats/credentials.json'));
    }
    const args = ['--import', 'tsx', path.join(ROOT, 'scripts/nats-cluster-config.ts'), '--name', member.name, '--address', member.address,
      '--members', addresses, '--client-port', String(clientPort), '--cluster-port', String(clusterPort)];
    const [command, ...rest] = [...wrap(member), process.execPath, ...args];
    return execFileSync(command, rest, { cwd: ROOT, env: { ...process.env, DATA_DIR: member.dataDir }, encoding: 'utf8' }).trim();
  });
}

/** Starts nats-server with `configFile` (through `wrap`, e.g. `ip netns exec NS`); resolves once it is ready. */
export function startMember(configFile: string, wrap: string[] = []): Promise<ChildProcess> {
  const [command, ...args] = [...wrap, 'nats-server', '-c', configFile];
  const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`nats-server -c ${configFile} not ready in 15 s:\n${log}`)), 15_000);
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      if (log.length < 64 * 1024) log += chunk;
      if (log.includes('Server is ready')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`nats-server exited (${code}):\n${log}`));
    });
  });
}

/** Waits until the cluster's JetStream answers (its meta leader is elected) for the `snapshots` user. */
export async function waitJetStream(servers: string[], dataDir: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const nc = await connect({ servers, ...natsAuthFor(dataDir, 'snapshots'), maxReconnectAttempts: -1 });
  try {
    for (;;) {
      try {
        await (await nc.jetstreamManager()).getAccountInfo();
        return;
      } catch (error) {
        if (Date.now() > deadline) throw new Error(`JetStream did not answer within ${timeoutMs} ms: ${String(error)}`);
        await sleep(250);
      }
    }
  } finally {
    await nc.close();
  }
}

/** Copies the test snapshot (with its .sha256 and .downloads) to `file`. */
export function copyTestSnapshot(file: string): void {
  const from = testSnapshotPath();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.copyFileSync(from, file);
  fs.copyFileSync(`${from}.sha256`, `${file}.sha256`);
  fs.cpSync(downloadsDirOf(from), downloadsDirOf(file), { recursive: true });
}

/** A DATA_DIR whose current snapshot is `snapshot-initial.sqlite`, a copy of the test snapshot. */
export function seedSnapshots(dataDir: string): void {
  const dir = path.join(dataDir, 'snapshots');
  copyTestSnapshot(path.join(dir, 'snapshot-initial.sqlite'));
  fs.symlinkSync('snapshot-initial.sqlite', path.join(dir, 'current.sqlite'));
}

/** The file name current.sqlite names in `dataDir`, or undefined. */
export function currentSnapshot(dataDir: string): string | undefined {
  try {
    return fs.readlinkSync(path.join(dataDir, 'snapshots/current.sqlite'));
  } catch {
    return undefined;
  }
}

/** Polls until `dataDir`'s current snapshot is `name`. */
export async function waitCurrent(dataDir: string, name: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (currentSnapshot(dataDir) !== name) {
    if (Date.now() > deadline) throw new Error(`${dataDir} serves ${currentSnapshot(dataDir)}, not ${name}, after ${timeoutMs} ms`);
    await sleep(200);
  }
}

/** `npm run publish:snapshot -- --file <file> [...]` on a cluster's host; returns stdout (the new snapshot's name on its line). */
export function publishFile(env: NodeJS.ProcessEnv, args: string[], wrap: string[] = []): string {
  const [command, ...rest] = [...wrap, process.execPath, '--import', 'tsx', path.join(ROOT, 'scripts/publish-snapshot.ts'), ...args];
  return execFileSync(command, rest, { cwd: ROOT, env: { ...process.env, ...env, SNAPSHOT_STORE: 'jetstream' }, encoding: 'utf8' });
}

/** The snapshot name a publish printed. */
export function publishedName(stdout: string): string {
  const name = /published to the cluster: (snapshot-\S+\.sqlite)/.exec(stdout)?.[1] ?? /current -> (snapshot-\S+\.sqlite)/.exec(stdout)?.[1];
  if (name === undefined) throw new Error(`no snapshot name in:\n${stdout}`);
  return name;
}
