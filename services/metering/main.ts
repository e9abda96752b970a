// The metering process: reads config, opens metering.db, connects to NATS, serves the metering subjects and
// the stack's GET /metrics.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

import { connect } from 'nats';

import { ConfigError, NATS_SERVER_ORDER } from '../shared/env.ts';
import { createProcessRegistry } from '../shared/metrics/registry.ts';
import { widerThanPrivate } from '../shared/private-files.ts';
import { readMeteringConfig } from './config.ts';
import { openMeteringDb } from './db/open.ts';
import { openShardDbs } from './db/shards.ts';
import { createLog } from './log.ts';
import { createMeteringMetrics } from './metrics/metering-metrics.ts';
import { startMetricsServer } from './metrics/server.ts';
import { startReplication, type Replication, type ReplicationSettings } from './replication/start.ts';
import { shardsOf, startMeteringService } from './service.ts';
import { describeStorageError } from './storage-health.ts';

import type { NatsConnection } from 'nats';

import type { Db } from './db/open.ts';

/** Reconnect quickly after a NATS restart; never give up (the service recovers by itself). */
const RECONNECT_TIME_WAIT_MS = 250;
/** Between tries to reach the cluster's JetStream at start (its servers may be starting too). */
const REPLICATION_RETRY_MS = 1000;
/** Exit code of a storage failure: pm2 restarts the process with back-off (ecosystem.config.cjs). */
const EXIT_STORAGE = 1;

const log = createLog('metering');
let config;
try {
  config = readMeteringConfig();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
}
const { dbPath, dataDir } = config;

/**
 * One line saying what is wrong and what happens next, then exit: staying up would serve nothing, and pm2
 * (exp_backoff_restart_delay) starts the process again until the database opens, without a person.
 */
function exitOnStorage(stage: string, error: unknown): never {
  log.error({
    msg: `metering.db ${stage}: exiting so that pm2 restarts metering with back-off; it recovers by itself once the file opens (restore it from a backup, or move it away to start empty, or make DATA_DIR writable)`,
    db: dbPath,
    error: describeStorageError(error),
  });
  process.exit(EXIT_STORAGE);
}

function openDb(): Db {
  try {
    return openMeteringDb(dbPath);
  } catch (error) {
    return exitOnStorage('cannot be opened', error);
  }
}

function openShards(main: Db): Db[] {
  try {
    return openShardDbs(dataDir, main);
  } catch (error) {
    return exitOnStorage('or a shard file under quota/ cannot be opened', error);
  }
}
/** The streams and this host's copies, once the cluster's JetStream answers (servers start in any order). */
async function startReplicationWhenReady(nc: NatsConnection, main: Db, shards: Db[], mine: number[], settings: ReplicationSettings): Promise<Replication> {
  for (;;) {
    try {
      return await startReplication(nc, main, shards, mine, settings, log);
    } catch (error) {
      log.error({ msg: 'metering state cannot be replicated yet: is JetStream enabled on the cluster? trying again', error: (error as Error).message });
      await sleep(REPLICATION_RETRY_MS);
    }
  }
}

const db = openDb();
const shardDbs = openShards(db);
const wider = widerThanPrivate(dataDir);
if (wider !== undefined) {
  log.error({ msg: 'DATA_DIR is open to other users: it holds personal data; chmod 700 it', dataDir, mode: wider.toString(8) });
}
const nc = await connect({
  servers: config.natsUrl,
  ...NATS_SERVER_ORDER,
  ...config.natsAuth,
  name: `metering-${process.pid}`,
  maxReconnectAttempts: -1,
  reconnectTimeWait: RECONNECT_TIME_WAIT_MS,
  waitOnFirstConnect: true,
});
// The first process is `metering@host`, as with one process; the others are numbered.
const worker = config.index === 0 ? `metering@${os.hostname()}` : `metering-${config.index}@${os.hostname()}`;
const registry = createProcessRegistry(worker);
const replication =
  config.replication === undefined
    ? undefined
    : await startReplicationWhenReady(nc, db, shardDbs, shardsOf(config.index, config.processes), {
        ...config.replication,
        holder: `${worker}-${process.pid}-${randomBytes(4).toString('hex')}`,
      });
const service = await startMeteringService({
  replication,
  nc,
  db,
  shardDbs,
  log,
  metrics: createMeteringMetrics(registry),
  usageRetentionDays: config.usageRetentionDays,
  processes: config.processes,
  index: config.index,
  // After the reply to the request that met it has gone out (the caller fails closed on it).
  onFatalStorageError: (error) => setImmediate(() => exitOnStorage('failed while serving', error)),
});
log.info({ msg: 'listening', nats: config.natsUrl, db: dbPath });
// Metrics are for operators: a port already taken is logged, and metering serves on without them. The first
// metering process serves them for the stack; the others' own figures are not scraped.
const metrics = config.index !== 0 ? undefined : await startMetricsServer({ host: config.metricsHost, port: config.metricsPort, worker, registry, nc, log }).then(
  (server) => {
    log.info({ msg: 'metrics at GET /metrics', host: config.metricsHost, port: server.port });
    return server;
  },
  (error: unknown) => {
    log.error({ msg: 'metrics not served: cannot listen', host: config.metricsHost, port: config.metricsPort, error: String(error) });
    return undefined;
  },
);

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log.info({ msg: 'shutting down', signal });
  await metrics?.close();
  await service.stop();
  replication?.stop();
  await nc.drain().catch(() => undefined);
  for (const shardDb of shardDbs) shardDb.close();
  db.close();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
