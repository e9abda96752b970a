// npm run nats:cluster-config -- --name n1 --address 10.0.0.1 --members 10.0.0.1,10.0.0.2,10.0.0.3: writes this
// host's member of the NATS cluster (DATA_DIR/nats/cluster.conf, 0600) from DATA_DIR/nats/credentials.json,
// adding the cluster's users to that file first if it has none. Run it on one host, copy credentials.json to the
// others' DATA_DIR/nats/, then run it on each; start the stack with NATS_SERVER_CONF naming the file
// (docs/scaling.md).
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { readEnv, sharedEnvSchema } from '../services/shared/env.ts';
import { DEFAULT_CLIENT_PORT, DEFAULT_CLUSTER_PORT, renderClusterConfig } from '../services/shared/nats-auth/cluster-config.ts';
import { ensureClusterCredentials, NATS_AUTH_DIR } from '../services/shared/nats-auth/credentials.ts';
import { PRIVATE_FILE_MODE } from '../services/shared/private-files.ts';

const env = readEnv(sharedEnvSchema.pick({ DATA_DIR: true }));
const { values: args } = parseArgs({
  options: {
    name: { type: 'string' },
    address: { type: 'string' },
    members: { type: 'string' },
    'client-port': { type: 'string', default: String(DEFAULT_CLIENT_PORT) },
    'cluster-port': { type: 'string', default: String(DEFAULT_CLUSTER_PORT) },
    'store-dir': { type: 'string' },
    out: { type: 'string' },
  },
});

function fail(message: string): never {
  console.error(`error: ${message}`);
  process.exit(1);
}

const port = (name: string, value: string) => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 && n < 65536 ? n : fail(`--${name} must be a port number, not ${value}`);
};
if (!args.name || !/^[A-Za-z0-9_-]+$/.test(args.name)) fail('--name must be this server\'s name in the cluster: letters, digits, - and _');
if (!args.address || net.isIP(args.address) === 0) fail('--address must be this host\'s IP address, which the others reach');
const members = (args.members ?? '').split(',').map((s) => s.trim()).filter(Boolean);
const bad = members.find((a) => net.isIP(a) === 0);
if (bad !== undefined) fail(`--members must be the members' IP addresses, comma-separated; ${bad} is not one`);
if (!members.includes(args.address)) fail(`--members must include this host's --address ${args.address}`);
// JetStream's replicas need a majority of the members up: three survive the loss of one, two survive none.
if (members.length < 3) fail('a cluster needs three or more members (JetStream keeps a majority of them)');

const authDir = path.join(env.DATA_DIR, NATS_AUTH_DIR);
const credentials = ensureClusterCredentials(env.DATA_DIR);
const out = path.resolve(args.out ?? path.join(authDir, 'cluster.conf'));
const text = renderClusterConfig(credentials, {
  name: args.name,
  address: args.address,
  members,
  clientPort: port('client-port', args['client-port'] as string),
  clusterPort: port('cluster-port', args['cluster-port'] as string),
  storeDir: path.resolve(args['store-dir'] ?? path.join(authDir, 'jetstream')),
});
const tmp = `${out}.${process.pid}.tmp`;
fs.writeFileSync(tmp, text, { mode: PRIVATE_FILE_MODE, flag: 'wx' });
fs.renameSync(tmp, out);
console.log(out);
