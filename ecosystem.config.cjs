// pm2 process layout: nats (unless NATS_URL names other servers; with NATS_SERVER_CONF, this host's member of a
// NATS cluster), METERING_PROCESSES metering processes (each serving its share of the keys' shards), API_WORKERS
// api workers in fork mode sharing one port (uWS SO_REUSEPORT; pm2 cluster mode cannot share a uWS port).
// HOST_ROLE (all, api, metering) says which of metering and the API workers this host runs; with
// SNAPSHOT_STORE=jetstream a host with API workers also runs the snapshots agent (docs/scaling.md).
// Production runs the esbuild bundles in dist/ (npm run build:dist). Values are validated again by each
// process's own zod config; this file only forwards them.
const { execFileSync } = require('node:child_process');
const os = require('node:os');
const path = require('node:path');

const env = process.env;
const NATS_PORT = env.NATS_PORT || '4222';
const DATA_DIR = path.resolve(__dirname, env.DATA_DIR || 'var');
const API_WORKERS = env.API_WORKERS ? Number(env.API_WORKERS) : os.availableParallelism();
const METERING_PROCESSES = env.METERING_PROCESSES ? Number(env.METERING_PROCESSES) : 1;
const HOST_ROLE = env.HOST_ROLE || 'all';
if (!['all', 'api', 'metering'].includes(HOST_ROLE)) throw new Error(`HOST_ROLE must be all, api or metering, not ${HOST_ROLE}`);
const RUNS_API = HOST_ROLE !== 'metering';
const RUNS_METERING = HOST_ROLE !== 'api';
const SNAPSHOT_STORE = env.SNAPSHOT_STORE || 'local';

// The pm2 home running this file: npm start sets $DATA_DIR/pm2; pm2's own default otherwise.
const PM2_HOME = env.PM2_HOME || path.join(os.homedir(), '.pm2');

const shared = {
  NODE_ENV: 'production',
  NATS_PORT,
  DATA_DIR,
  ...(env.NATS_URL ? { NATS_URL: env.NATS_URL } : {}),
  ...(env.SNAPSHOT_STORE ? { SNAPSHOT_STORE: env.SNAPSHOT_STORE } : {}),
};

// pm2 installs source-map-support in any app whose script has a .map beside it (dist/ has them) unless the
// app sets disable_source_map_support; `source_map_support: false` is overridden. Its first mapped stack
// trace parses the whole map, a stall in the worker, and every later failed request (NATS errors while
// metering is down format a stack each) pays for mapping its stack.
const NO_PM2_SOURCE_MAPS = { disable_source_map_support: true };

// A process that exits at once (metering.db that cannot be opened, no good snapshot) is started again after
// 100 ms, then 1.5 times longer each time up to 15 s, for as long as it takes: pm2 resets the delay once the
// process stays up 30 s. A fixed restart_delay instead had pm2 count 16 quick exits as unstable and stop
// restarting ("errored"), so the service stayed down after the cause was mended until someone restarted it.
const RESTART_WITH_BACKOFF = { exp_backoff_restart_delay: 100 };

// The bus's users, one per role with its permissions: DATA_DIR/nats/credentials.json (0600) is made on the first
// start and never replaced; nats-server.conf is written from it each time (services/shared/nats-auth). With
// NATS_URL the processes still connect as those users: give the other server the generated config's users.
const NATS_CONFIG = execFileSync(process.execPath, [path.join(__dirname, 'dist/nats-auth.mjs')], {
  env: { ...env, DATA_DIR },
  encoding: 'utf8',
}).trim();

const apps = [];
if (env.NATS_SERVER_CONF) {
  // This host's member of the cluster (npm run nats:cluster-config wrote the file: its addresses, routes,
  // JetStream store and the bus's users); the processes reach the cluster through NATS_URL.
  apps.push({
    name: 'nats',
    script: 'nats-server',
    args: ['-c', path.resolve(env.NATS_SERVER_CONF)],
    interpreter: 'none',
    autorestart: true,
    kill_timeout: 5000,
  });
} else if (!env.NATS_URL) {
  apps.push({
    name: 'nats',
    script: 'nats-server',
    args: ['-c', NATS_CONFIG, '-a', '127.0.0.1', '-p', NATS_PORT],
    interpreter: 'none',
    autorestart: true,
    kill_timeout: 5000,
  });
}
if (RUNS_METERING) apps.push({
  name: 'metering',
  script: path.join(__dirname, 'dist/metering.mjs'),
  cwd: __dirname,
  // pm2 gives each its index in NODE_APP_INSTANCE; the first serves GET /metrics for the whole stack
  // (METRICS_HOST:METRICS_PORT), gathering the workers' over NATS.
  instances: METERING_PROCESSES,
  exec_mode: 'fork',
  env: {
    ...shared,
    METERING_PROCESSES: String(METERING_PROCESSES),
    ...(env.METRICS_PORT ? { METRICS_PORT: env.METRICS_PORT } : {}),
    ...(env.METRICS_HOST ? { METRICS_HOST: env.METRICS_HOST } : {}),
    ...(env.USAGE_RETENTION_DAYS ? { USAGE_RETENTION_DAYS: env.USAGE_RETENTION_DAYS } : {}),
    // Metering's state replicated through the cluster's JetStream (docs/metering.md, Replication across hosts).
    ...(env.METERING_REPLICATION ? { METERING_REPLICATION: env.METERING_REPLICATION } : {}),
    ...(env.METERING_REPLICAS ? { METERING_REPLICAS: env.METERING_REPLICAS } : {}),
    ...(env.METERING_LEASE_TTL_MS ? { METERING_LEASE_TTL_MS: env.METERING_LEASE_TTL_MS } : {}),
  },
  ...NO_PM2_SOURCE_MAPS,
  // Let it return leased units and commit before pm2 kills it.
  kill_timeout: 10000,
  ...RESTART_WITH_BACKOFF,
});
if (RUNS_API) apps.push({
  name: 'api',
  script: path.join(__dirname, 'dist/api.mjs'),
  cwd: __dirname,
  instances: API_WORKERS,
  exec_mode: 'fork',
  env: {
    ...shared,
    PORT: env.PORT || '8080',
    HOST: env.HOST || '0.0.0.0',
    TRUST_PROXY: env.TRUST_PROXY || '',
    ...(env.REQUEST_LOG ? { REQUEST_LOG: env.REQUEST_LOG } : {}),
    ...(env.REQUEST_LOG_SAMPLE ? { REQUEST_LOG_SAMPLE: env.REQUEST_LOG_SAMPLE } : {}),
    ...(env.SNAPSHOT_PATH ? { SNAPSHOT_PATH: env.SNAPSHOT_PATH } : {}),
    ...(env.OPERATOR_CONTACT ? { OPERATOR_CONTACT: env.OPERATOR_CONTACT } : {}),
    ...(env.ALLOWED_HOSTS ? { ALLOWED_HOSTS: env.ALLOWED_HOSTS } : {}),
    ...(env.RESPONSE_STALL_MS ? { RESPONSE_STALL_MS: env.RESPONSE_STALL_MS } : {}),
    ...(env.RESPONSE_BUFFER_BYTES ? { RESPONSE_BUFFER_BYTES: env.RESPONSE_BUFFER_BYTES } : {}),
    // glibc's malloc with a fixed trim threshold (its own default, 128 KB) and two arenas. Left alone, glibc
    // raises the threshold each time a large block is freed (to twice the block, up to 64 MB) and then keeps
    // that much freed memory, SQLite's and uWS's, resident: tens of MB against the 150 MB target (the bench's
    // HTTP section reports the workers' memory after its runs).
    MALLOC_TRIM_THRESHOLD_: '131072',
    MALLOC_ARENA_MAX: '2',
  },
  // A worker sends 'ready' once it listens, so `pm2 reload api` restarts the next one only then: the port is
  // never without a listener during a snapshot publish.
  wait_ready: true,
  // A young generation of 4 MB (V8's default is 16 MB per semi-space) and an old-space cap of 128 MB (a
  // worker's live heap after a full collection is a small part of it): V8 otherwise sizes the heap from the
  // machine's memory and lets it grow far past the 150 MB target before collecting (the bench's HTTP section
  // reports the workers' memory after its runs).
  // --single-threaded-gc: V8 otherwise scavenges and marks with helper threads, and on cores shared with the
  // other worker, pm2 and the clients, a worker's main thread waits in every pause for helpers that are not
  // running. With the flag the whole collection runs on the worker's main thread and no pause waits for
  // another thread (the p99s of the bench's HTTP section; npm run bench -- --compare <ref> measures a change).
  node_args: ['--max-semi-space-size=4', '--max-old-space-size=128', '--single-threaded-gc'],
  ...NO_PM2_SOURCE_MAPS,
  listen_timeout: 15000,
  // Time to finish in-flight requests and hand back leased quota.
  kill_timeout: 10000,
  ...RESTART_WITH_BACKOFF,
});

// On a cluster, installs the snapshot the cluster's store announces and reloads this host's workers
// (services/snapshots/main.ts).
if (RUNS_API && SNAPSHOT_STORE === 'jetstream') {
  apps.push({
    name: 'snapshots',
    script: path.join(__dirname, 'dist/snapshots.mjs'),
    cwd: __dirname,
    instances: 1,
    exec_mode: 'fork',
    env: {
      ...shared,
      PM2_HOME,
      ...(env.SNAPSHOT_REPLICAS ? { SNAPSHOT_REPLICAS: env.SNAPSHOT_REPLICAS } : {}),
      ...(env.SNAPSHOT_RECHECK_MS ? { SNAPSHOT_RECHECK_MS: env.SNAPSHOT_RECHECK_MS } : {}),
    },
    ...NO_PM2_SOURCE_MAPS,
    kill_timeout: 5000,
    ...RESTART_WITH_BACKOFF,
  });
}

// Rotates the files pm2 writes under $PM2_HOME/logs by size (LOG_MAX_MB, LOG_KEEP), by copy and truncate. Its
// own process, so that rotation needs no network (pm2-logrotate is installed from the npm registry) and never
// waits on an API worker or metering.
apps.push({
  name: 'logrotate',
  script: path.join(__dirname, 'dist/logrotate.mjs'),
  cwd: __dirname,
  instances: 1,
  exec_mode: 'fork',
  env: {
    NODE_ENV: 'production',
    PM2_HOME,
    ...(env.LOG_MAX_MB ? { LOG_MAX_MB: env.LOG_MAX_MB } : {}),
    ...(env.LOG_KEEP ? { LOG_KEEP: env.LOG_KEEP } : {}),
  },
  node_args: ['--max-old-space-size=32'],
  ...NO_PM2_SOURCE_MAPS,
  restart_delay: 1000,
});

module.exports = { apps };
