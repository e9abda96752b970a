// Test helpers for replicated metering: a real 3-server NATS cluster with JetStream on loopback (each server its
// own ports and store), and metering processes with replication on, each "host" with its own DATA_DIR.
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { connect, type NatsConnection } from 'nats';

import { freePort } from '../support/free-port.ts';
import { launch } from '../support/nats.ts';
import { spawnMetering, tempDir, type ChildMetering } from './support.ts';

import type { ChildProcess } from 'node:child_process';

export interface ClusterServer {
  url: string;
  /** kill -9 */
  kill(): Promise<void>;
}

export interface JetStreamCluster {
  servers: ClusterServer[];
  stop(): Promise<void>;
}

const JETSTREAM_READY_MS = 20_000;

/** Three nats-servers routed into one cluster, JetStream on each, and JetStream answering before it returns. */
export async function startJetStreamCluster(size = 3): Promise<JetStreamCluster> {
  const dir = tempDir('cluster');
  const clientPorts: number[] = [];
  const routePorts: number[] = [];
  for (let i = 0; i < size; i++) {
    clientPorts.push(await freePort());
    routePorts.push(await freePort());
  }
  const routes = routePorts.map((p) => `nats-route://127.0.0.1:${p}`).join(', ');
  const children: ChildProcess[] = [];
  const started = clientPorts.map(async (port, i) => {
    const file = path.join(dir, `n${i}.conf`);
    fs.writeFileSync(
      file,
      [
        `server_name: n${i}`,
        `jetstream { store_dir: ${JSON.stringify(path.join(dir, `store-${i}`))}, max_memory_store: 64MB, max_file_store: 1GB }`,
        `cluster { name: metering-test, listen: 127.0.0.1:${routePorts[i]}, routes: [${routes}] }`,
        '',
      ].join('\n'),
    );
    const { child } = await launch(port, file);
    children[i] = child;
  });
  await Promise.all(started);
  const servers = clientPorts.map((port, i) => ({
    url: `nats://127.0.0.1:${port}`,
    async kill() {
      const child = children[i];
      if (child.exitCode !== null || child.signalCode !== null) return;
      const done = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await done;
    },
  }));
  await waitForJetStream(servers[0].url);
  return {
    servers,
    async stop() {
      for (const s of servers) await s.kill();
    },
  };
}

/** Until the cluster has a JetStream meta leader (account info answers). */
async function waitForJetStream(url: string): Promise<void> {
  const nc = await connect({ servers: url });
  const deadline = Date.now() + JETSTREAM_READY_MS;
  try {
    for (;;) {
      try {
        await (await nc.jetstreamManager({ timeout: 1000 })).getAccountInfo();
        return;
      } catch (error) {
        if (Date.now() > deadline) throw new Error(`JetStream not ready: ${(error as Error).message}`);
        await sleep(200);
      }
    }
  } finally {
    await nc.close();
  }
}

const SERVICE_READY_MS = 30_000;

/**
 * A metering process of one "host" (its own DATA_DIR) with replication on, connected to `url`, returned once it
 * has caught up with the streams and serves (a ping alone may be answered by another host's process).
 */
export async function spawnReplicatedMetering(url: string, dataDir = tempDir('host'), leaseTtlMs = 2000): Promise<ChildMetering> {
  const child = await spawnMetering(url, dataDir, { METERING_REPLICATION: 'jetstream', METERING_LEASE_TTL_MS: String(leaseTtlMs) });
  const deadline = Date.now() + SERVICE_READY_MS;
  while (!child.output().includes('metering service ready')) {
    if (Date.now() > deadline) throw new Error(`replicated metering not ready:\n${child.output()}`);
    await sleep(100);
  }
  return child;
}

export async function connectTo(url: string): Promise<NatsConnection> {
  return connect({ servers: url, maxReconnectAttempts: -1, reconnectTimeWait: 100 });
}
