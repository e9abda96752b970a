// API worker entry point: configuration → snapshot → meter → app → listen; graceful shutdown on signals.
import { ConfigError } from '../shared/env.ts';
import { closeApp, createApp } from './app.ts';
import { readApiConfig } from './config.ts';
import { createApiLogger } from './log.ts';
import { connectMeter } from './metering/nats-meter.ts';
import { serveWorkerMetrics } from './metrics/serve.ts';
import { WorkerCounters } from './metrics/worker-stats.ts';
import { openSnapshot } from './snapshot/reader.ts';

import type { Deps } from './deps.ts';
import type { Snapshot } from './snapshot/snapshot.ts';

async function main(): Promise<void> {
  const config = readApiConfig();
  const log = createApiLogger({ service: 'api', worker: config.workerName }, config.requestLog);
  const snapshot = open(config.snapshotPath);
  const counters = new WorkerCounters();
  const meter = await connectMeter({ natsUrl: config.natsUrl, workerName: config.workerName, stats: counters });
  const deps: Deps = { config, snapshot, meter, log, stats: counters, now: Date.now };
  const app = createApp(deps);
  await app.listen(config.port, config.host);
  const metrics = await serveWorkerMetrics(config.natsUrl, { worker: config.workerName, counters, log, meter, snapshot });

  const { version, sample } = snapshot.meta;
  log.info({ msg: 'listening', host: config.host, port: app.port, snapshot: version, snapshotPath: config.snapshotPath, sample });
  if (sample) {
    log.error({
      msg: 'WARNING: serving the bundled SAMPLE snapshot, not the real corpora. Build the real one with `npm run build:snapshot`.',
      snapshot: version,
    });
  }
  const downloads = snapshot.downloads?.();
  if (downloads?.problem) log.error({ msg: 'serving no downloads: the snapshot has none that match it', problem: downloads.problem });
  log.flush();
  // pm2 wait_ready: this worker takes traffic from now on.
  process.send?.('ready');

  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    log.info({ msg: 'stopping', signal });
    await closeApp(app);
    await metrics.close();
    await meter.close().catch((error: unknown) => log.error({ msg: 'meter close failed', error: String(error) }));
    snapshot.close();
    log.info({ msg: 'stopped' });
    log.flush();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

function open(snapshotPath: string): Snapshot {
  try {
    return openSnapshot(snapshotPath);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError(
      `Cannot open the snapshot at ${snapshotPath} (SNAPSHOT_PATH, or DATA_DIR/snapshots/current.sqlite): ${reason}. ` +
        'Build one with `npm run build:snapshot`.',
    );
  }
}

main().catch((error: unknown) => {
  // A bad configuration names the variable; anything else is a start-up failure with its stack.
  process.stderr.write(`${error instanceof ConfigError ? error.message : error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
