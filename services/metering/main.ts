// The metering process: reads config, opens metering.db, connects to NATS and serves the metering subjects.
import { connect } from 'nats';

import { ConfigError } from '../shared/env.ts';
import { readMeteringConfig } from './config.ts';
import { openMeteringDb } from './db/open.ts';
import { createLog } from './log.ts';
import { startMeteringService } from './service.ts';

/** Reconnect quickly after a NATS restart; never give up (the service recovers by itself). */
const RECONNECT_TIME_WAIT_MS = 250;

const log = createLog('metering');
let config;
try {
  config = readMeteringConfig();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
}
const db = openMeteringDb(config.dbPath);
const nc = await connect({
  servers: config.natsUrl,
  name: `metering-${process.pid}`,
  maxReconnectAttempts: -1,
  reconnectTimeWait: RECONNECT_TIME_WAIT_MS,
  waitOnFirstConnect: true,
});
const service = await startMeteringService({ nc, db, log });
log.info({ msg: 'listening', nats: config.natsUrl, db: config.dbPath });

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log.info({ msg: 'shutting down', signal });
  await service.stop();
  await nc.drain().catch(() => undefined);
  db.close();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
