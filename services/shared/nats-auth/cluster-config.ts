// The nats-server configuration of one member of a NATS cluster with JetStream: its name, its client and route
// addresses, the routes to the other members, its JetStream store, and the bus's users (server-config.ts) with
// the `snapshots` user a cluster adds. Every member gets the same users, so a process may connect to any of them.
import { renderAuthorization } from './server-config.ts';

import type { NatsCredentials } from './credentials.ts';

/** nats-server's own defaults, written out so that the file says where each member listens. */
export const DEFAULT_CLIENT_PORT = 4222;
export const DEFAULT_CLUSTER_PORT = 6222;
/** The cluster's name: JetStream's replicas are placed within it. */
export const CLUSTER_NAME = 'dict';

export interface ClusterMember {
  /** server_name: unique in the cluster, stable across restarts (JetStream's peers are known by it). */
  name: string;
  /** The address this member's clients and routes listen on, and the others reach it at. */
  address: string;
  /** Every member's address, this one's included (it is left out of its own routes). */
  members: readonly string[];
  clientPort: number;
  clusterPort: number;
  /** JetStream's directory: the replicated streams' files. */
  storeDir: string;
}

const quoted = (v: string | number) => JSON.stringify(String(v));

/** The whole file; it holds passwords, so it is written 0600 (scripts/nats-cluster-config.ts). */
export function renderClusterConfig(credentials: NatsCredentials, member: ClusterMember): string {
  const route = credentials.route;
  if (route === undefined || credentials.users.snapshots === undefined) {
    throw new Error('the credentials have no route or snapshots user: make them with ensureClusterCredentials');
  }
  const routes = member.members
    .filter((a) => a !== member.address)
    .map((a) => `    ${quoted(`nats-route://${route.user}:${route.pass}@${a}:${member.clusterPort}`)}`);
  return [
    '# One member of the dictionary\'s NATS cluster, written by `npm run nats:cluster-config`; edits are overwritten.',
    `server_name: ${quoted(member.name)}`,
    `listen: ${quoted(`${member.address}:${member.clientPort}`)}`,
    'jetstream {',
    `  store_dir: ${quoted(member.storeDir)}`,
    '}',
    'cluster {',
    `  name: ${quoted(CLUSTER_NAME)}`,
    `  listen: ${quoted(`${member.address}:${member.clusterPort}`)}`,
    `  authorization { user: ${quoted(route.user)}, password: ${quoted(route.pass)} }`,
    '  routes: [',
    ...routes,
    '  ]',
    '}',
    renderAuthorization(credentials),
    '',
  ].join('\n');
}
