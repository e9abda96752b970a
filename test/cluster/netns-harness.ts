// Hosts of a cluster on one machine, each in a network namespace of its own (iproute2: `ip netns`, a veth pair
// per host on one bridge), each running the production stack under its own pm2 (its own PM2_HOME) with a member
// of the NATS cluster: what runs on three real machines, with a host's loss made by killing every process in its
// namespace and cutting its link. Needs root (CI and this machine run as root). Names carry a random id so a run
// left over by a crash never collides with the next; destroy() removes everything, whatever state it is in.
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';

import { ROOT, seedSnapshots, waitJetStream, writeClusterConfigs } from './nats-cluster.ts';

const run = promisify(execFile);
export const NATS_CLIENT_PORT = 4222;
const NATS_CLUSTER_PORT = 6222;
export const HTTP_PORT = 8080;

export type HostRole = 'all' | 'api' | 'metering';

export interface NetnsHost {
  index: number;
  name: string;
  netns: string;
  /** The root side of its veth pair: down is a cut link. */
  link: string;
  address: string;
  dataDir: string;
  role: HostRole;
  baseUrl: string;
}

export interface NetnsCluster {
  hosts: NetnsHost[];
  /** The cluster's NATS servers, as every host's NATS_URL lists them. */
  natsUrl: string;
  /** The environment a command on `host` runs with (DATA_DIR, NATS_URL, PM2_HOME, …). */
  envOf(host: NetnsHost): NodeJS.ProcessEnv;
  /** Starts the host's stack under its pm2 (nats member, metering and/or API workers, snapshots agent). */
  start(host: NetnsHost): Promise<void>;
  /** kill -9 of every process in the host's namespace (pm2's daemon, nats-server, the workers), and its link cut. */
  lose(host: NetnsHost): Promise<void>;
  /** The link back up (start() then brings its processes back). */
  reconnect(host: NetnsHost): Promise<void>;
  /** Runs `argv` inside the host's namespace. */
  exec(host: NetnsHost, argv: string[], env?: NodeJS.ProcessEnv): Promise<string>;
  destroy(): Promise<void>;
}

function ip(...args: string[]): void {
  execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });
}

function pidsIn(netns: string): number[] {
  try {
    return execFileSync('ip', ['netns', 'pids', netns], { encoding: 'utf8' }).split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

async function killAllIn(netns: string): Promise<void> {
  for (let i = 0; i < 20; i++) {
    const pids = pidsIn(netns);
    if (pids.length === 0) return;
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
    await sleep(100);
  }
}

/** Whether this machine lets us make namespaces (root, iproute2). */
export function netnsAvailable(): boolean {
  const probe = `dict-probe-${randomBytes(3).toString('hex')}`;
  try {
    ip('netns', 'add', probe);
    ip('netns', 'del', probe);
    return true;
  } catch {
    return false;
  }
}

export async function createNetnsCluster(roles: readonly HostRole[], env: NodeJS.ProcessEnv = {}): Promise<NetnsCluster> {
  const id = randomBytes(3).toString('hex');
  const subnet = `10.${200 + (parseInt(id.slice(0, 2), 16) % 50)}.${parseInt(id.slice(2, 4), 16)}`;
  const bridge = `dbr${id}`;
  const base = fs.mkdtempSync(path.join(os.tmpdir(), `dict-netns-${id}-`));
  const hosts: NetnsHost[] = roles.map((role, i) => ({
    index: i,
    name: `h${i + 1}`,
    netns: `dict-${id}-h${i + 1}`,
    link: `dv${id}h${i + 1}`,
    address: `${subnet}.${i + 1}`,
    dataDir: path.join(base, `h${i + 1}`),
    role,
    baseUrl: `http://${subnet}.${i + 1}:${HTTP_PORT}`,
  }));
  const natsUrl = hosts.map((h) => `nats://${h.address}:${NATS_CLIENT_PORT}`).join(',');

  const destroy = async () => {
    for (const host of hosts) {
      await killAllIn(host.netns);
      try {
        ip('netns', 'del', host.netns);
      } catch {
        // never made
      }
    }
    try {
      ip('link', 'del', bridge);
    } catch {
      // never made
    }
    fs.rmSync(base, { recursive: true, force: true });
  };

  try {
    ip('link', 'add', bridge, 'type', 'bridge');
    ip('addr', 'add', `${subnet}.254/24`, 'dev', bridge);
    ip('link', 'set', bridge, 'up');
    for (const host of hosts) {
      const peer = `dp${id}h${host.index + 1}`;
      ip('netns', 'add', host.netns);
      ip('link', 'add', host.link, 'type', 'veth', 'peer', 'name', peer);
      ip('link', 'set', peer, 'netns', host.netns);
      ip('link', 'set', host.link, 'master', bridge);
      ip('link', 'set', host.link, 'up');
      ip('-n', host.netns, 'addr', 'add', `${host.address}/24`, 'dev', peer);
      ip('-n', host.netns, 'link', 'set', peer, 'up');
      ip('-n', host.netns, 'link', 'set', 'lo', 'up');
      fs.mkdirSync(host.dataDir, { recursive: true, mode: 0o700 });
      seedSnapshots(host.dataDir);
    }
    writeClusterConfigs(hosts.map((h) => ({ name: h.name, address: h.address, dataDir: h.dataDir })), NATS_CLIENT_PORT, NATS_CLUSTER_PORT);
  } catch (error) {
    await destroy();
    throw error;
  }

  // Each host lists its own member first, as docs/scaling.md tells operators to.
  const ownFirst = (host: NetnsHost) => [host, ...hosts.filter((h) => h !== host)].map((h) => `nats://${h.address}:${NATS_CLIENT_PORT}`).join(',');
  const envOf = (host: NetnsHost): NodeJS.ProcessEnv => ({
    ...process.env,
    DATA_DIR: host.dataDir,
    PM2_HOME: path.join(host.dataDir, 'pm2'),
    NATS_URL: ownFirst(host),
    NATS_SERVER_CONF: path.join(host.dataDir, 'nats/cluster.conf'),
    HOST_ROLE: host.role,
    SNAPSHOT_STORE: 'jetstream',
    PORT: String(HTTP_PORT),
    HOST: host.address,
    // The test's clients reach the hosts through the bridge, as through a load balancer, and name the client
    // they stand for in X-Forwarded-For (registrations from many addresses, each within its throttle).
    TRUST_PROXY: `${subnet}.254`,
    API_WORKERS: '1',
    METERING_PROCESSES: '1',
    METRICS_PORT: '9464',
    REQUEST_LOG: 'errors',
    SNAPSHOT_RECHECK_MS: '5000',
    ...env,
  });
  const exec = async (host: NetnsHost, argv: string[], extra: NodeJS.ProcessEnv = {}) =>
    (await run('ip', ['netns', 'exec', host.netns, ...argv], { cwd: ROOT, env: { ...envOf(host), ...extra }, maxBuffer: 16 * 1024 * 1024 })).stdout;

  return {
    hosts,
    natsUrl,
    envOf,
    exec,
    async start(host) {
      // pm2's daemon starts inside the namespace, so everything it runs (its `nats` app: this host's member of
      // the cluster, from NATS_SERVER_CONF) lives there too.
      await exec(host, [path.join(ROOT, 'node_modules/.bin/pm2'), 'start', 'ecosystem.config.cjs']);
    },
    async lose(host) {
      await killAllIn(host.netns);
      ip('link', 'set', host.link, 'down');
    },
    async reconnect(host) {
      ip('link', 'set', host.link, 'up');
    },
    destroy,
  };
}

/** Waits until every host's NATS member is up and the cluster's JetStream answers. */
export async function waitClusterReady(cluster: NetnsCluster, timeoutMs: number): Promise<void> {
  await waitJetStream(cluster.natsUrl.split(','), cluster.hosts[0].dataDir, timeoutMs);
}
