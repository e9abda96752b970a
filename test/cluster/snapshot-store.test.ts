// A snapshot published once reaches a host through a three-member NATS cluster with JetStream: the members'
// configs from `npm run nats:cluster-config`, `npm run publish:snapshot` with SNAPSHOT_STORE=jetstream on one
// host, and another host's snapshots agent that catches up on start and follows a publish and a rollback.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import { freePort } from '../support/free-port.ts';
import { tempDir } from '../support/temp-dir.ts';
import { copyTestSnapshot, currentSnapshot, publishedName, publishFile, ROOT, seedSnapshots, startMember, waitCurrent, waitJetStream, writeClusterConfigs } from './nats-cluster.ts';

import type { ChildProcess } from 'node:child_process';

/** Time for an agent to fetch, hash and check a snapshot of about 100 MB on a loaded machine. */
const INSTALL_TIMEOUT_MS = 60_000;

describe('snapshot store', () => {
  const members = ['127.0.0.1', '127.0.0.2', '127.0.0.3'].map((address, i) => ({ name: `n${i + 1}`, address, dataDir: tempDir(`dict-cluster-n${i + 1}-`) }));
  const servers: ChildProcess[] = [];
  let agent: ChildProcess | undefined;
  let agentLog = '';
  let natsUrl = '';
  const publisher = members[0].dataDir;
  const host = members[1].dataDir;
  const candidate = path.join(tempDir('dict-cluster-build-'), 'built.sqlite');

  before(async () => {
    const clientPort = await freePort();
    const clusterPort = await freePort();
    const configs = writeClusterConfigs(members, clientPort, clusterPort);
    for (const config of configs) servers.push(await startMember(config));
    natsUrl = members.map((m) => `nats://${m.address}:${clientPort}`).join(',');
    await waitJetStream(natsUrl.split(','), publisher);
    seedSnapshots(host);
    copyTestSnapshot(candidate);
  });

  after(async () => {
    agent?.kill('SIGKILL');
    for (const server of servers) server.kill('SIGKILL');
  });

  // A recheck every 5 s: the agent follows the store even while its watch is being made again after a member's loss.
  const env = (dataDir: string) => ({ DATA_DIR: dataDir, NATS_URL: natsUrl, SNAPSHOT_REPLICAS: '3', SNAPSHOT_RECHECK_MS: '5000' });

  test('snapshot store - a host that was away catches up on start, follows a publish and a rollback', async () => {
    const first = publishedName(publishFile(env(publisher), ['--file', candidate]));
    assert.equal(currentSnapshot(host), 'snapshot-initial.sqlite');

    agent = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'services/snapshots/main.ts')], {
      cwd: ROOT,
      env: { ...process.env, ...env(host), SNAPSHOT_STORE: 'jetstream' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [agent.stdout, agent.stderr]) stream?.on('data', (chunk: Buffer) => (agentLog += chunk.toString()));
    await waitCurrent(host, first, INSTALL_TIMEOUT_MS).catch((error: Error) => assert.fail(`${error.message}\n${agentLog}`));
    const sidecar = fs.readFileSync(path.join(host, 'snapshots', `${first}.sha256`), 'utf8');
    assert.equal(sidecar.split(/\s+/)[0], fs.readFileSync(`${candidate}.sha256`, 'utf8').split(/\s+/)[0]);
    assert.ok(fs.existsSync(path.join(host, 'snapshots', `${first}.downloads`, 'index.json')), 'the downloads come with it');

    await sleep(1_100); // a new second: snapshot names carry the time to the second
    const second = publishedName(publishFile(env(publisher), ['--file', candidate]));
    await waitCurrent(host, second, INSTALL_TIMEOUT_MS).catch((error: Error) => assert.fail(`${error.message}\n${agentLog}`));
    assert.equal(fs.readlinkSync(path.join(host, 'snapshots/previous.sqlite')), first);

    const rolledBack = publishFile(env(publisher), ['--rollback']);
    assert.match(rolledBack, new RegExp(`current -> ${first.replace('.', '\\.')}`));
    await waitCurrent(host, first, INSTALL_TIMEOUT_MS).catch((error: Error) => assert.fail(`${error.message}\n${agentLog}`));
    assert.ok(!fs.existsSync(path.join(host, 'snapshots/snapshot-initial.sqlite')), 'snapshots neither link names are pruned');
  });

  // The store's streams keep a majority; the agent tries again each object whose reading consumer the server
  // placed on the member that is down (store.ts, FETCH_TRIES).
  test('snapshot store - a publish made with one member of the cluster down reaches the host', async () => {
    assert.ok(agent, 'runs after the test above');
    servers[2].kill('SIGKILL');
    await sleep(1_100);
    const third = publishedName(publishFile(env(publisher), ['--file', candidate]));
    await waitCurrent(host, third, INSTALL_TIMEOUT_MS).catch((error: Error) => assert.fail(`${error.message}\n${agentLog}`));
  });
});
