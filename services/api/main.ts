// API worker entry point: configuration → checked snapshot → meter → app → listen; graceful shutdown on signals.
import { ConfigError } from '../shared/env.ts';
import { closeApp, createApp } from './app.ts';
import { readApiConfig } from './config.ts';
import { createApiLogger } from './log.ts';
import { startMeter } from './metering-client/nats-meter.ts';
import { serveWorkerMetrics } from './metrics/serve.ts';
import { WorkerCounters } from './metrics/worker-stats.ts';
import { openCheckedSnapshot } from '../../snapshot/reader/open-checked.ts';
import { watchSnapshotFile } from '../../snapshot/reader/watch.ts';

import type { Deps, Logger } from './deps.ts';
import type { CheckedSnapshot } from '../../snapshot/reader/open-checked.ts';

/** Exit code of a worker whose snapshot changed or was found damaged: pm2 restarts it (with back-off). */
const EXIT_SNAPSHOT = 1;

async function main(): Promise<void> {
  const config = readApiConfig();
  const log = createApiLogger({ service: 'api', worker: config.workerName }, config.requestLog);
  const { snapshot, file, fallback } = open(config.snapshotPath, log);
  const unwatch = watchSnapshotFile(file, (change) => {
    // Not a graceful stop: the pages behind the map may be gone, and draining would read them.
    log.error({ msg: `SNAPSHOT FILE CHANGED UNDER THE WORKER (${change}): exiting at once; the restart checks it. Publish with npm run publish:snapshot, never cp over a live snapshot.`, file });
    log.flush();
    process.exit(EXIT_SNAPSHOT);
  });
  const counters = new WorkerCounters();
  // Connects in the background: the worker listens even while NATS is down (metered routes fail closed).
  const meter = startMeter(
    {
      natsUrl: config.natsUrl,
      natsAuth: config.natsAuth,
      workerName: config.workerName,
      dataDir: config.dataDir,
      stats: counters,
      storage: {
        failed: (cause) => log.error({ msg: `host allowance cannot commit (metered requests fail closed until it can): ${cause}` }),
        recovered: () => log.info({ msg: 'host allowance commits again' }),
      },
    },
    (error) => log.error({ msg: 'cannot connect to NATS: metered requests and registrations fail closed', error: String(error) }),
  );
  // Set once the app exists: a fault found while serving stops the worker like a signal, with a failing code.
  let stopOn = (_why: string, _code: number): void => undefined;
  const deps: Deps = {
    config,
    snapshot,
    meter,
    log,
    stats: counters,
    now: Date.now,
    snapshotFallback: fallback,
    onSnapshotFault: (error) => {
      log.error({ msg: `SNAPSHOT DAMAGED: SQLite found ${file} corrupt while serving; stopping so that the restart checks it`, error: String(error) });
      stopOn('snapshot damaged', EXIT_SNAPSHOT);
    },
  };
  const app = createApp(deps);
  await app.listen(config.port, config.host);
  const metrics = await serveWorkerMetrics(
    config.natsUrl,
    { worker: config.workerName, counters, log, meter, snapshot, responseBuffers: deps.responseBuffers },
    config.natsAuth,
  );

  logStart(log, config, snapshot, file, app.port);
  log.flush();
  // pm2 wait_ready: this worker takes traffic from now on.
  process.send?.('ready');

  let stopping = false;
  const stop = async (signal: string, code = 0): Promise<void> => {
    if (stopping) return;
    stopping = true;
    log.info({ msg: 'stopping', signal });
    await closeApp(app);
    await metrics.close();
    await meter.close().catch((error: unknown) => log.error({ msg: 'meter close failed', error: String(error) }));
    unwatch();
    snapshot.close();
    log.info({ msg: 'stopped' });
    log.flush();
    process.exit(code);
  };
  stopOn = (why, code) => void stop(why, code);
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

/** The start line, and the warnings an operator must see at start: a sample snapshot, no contact, no downloads. */
function logStart(log: Logger, config: ReturnType<typeof readApiConfig>, snapshot: CheckedSnapshot['snapshot'], file: string, port: number): void {
  const { version, sample } = snapshot.meta;
  log.info({ msg: 'listening', host: config.host, port, snapshot: version, snapshotPath: config.snapshotPath, snapshotFile: file, sample });
  if (sample) {
    log.error({
      msg: 'WARNING: serving the bundled SAMPLE snapshot, not the real corpora. Build the real one with `npm run build:snapshot`.',
      snapshot: version,
    });
  }
  if (config.operatorContact === undefined) {
    // A warning, not an error: a stack without a published contact works, and says so on its pages.
    (log.warn ?? log.info)({
      msg: 'OPERATOR_CONTACT is not set: every page and every quota_exceeded message says that no contact address is published. Set it to an email address or an https:// URL.',
    });
  }
  const downloads = snapshot.downloads?.();
  if (downloads?.problem) log.error({ msg: 'serving no downloads: the snapshot has none that match it', problem: downloads.problem });
}

function open(snapshotPath: string, log: Logger): CheckedSnapshot {
  try {
    return openCheckedSnapshot(snapshotPath, log);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError(
      `Cannot open the snapshot at ${snapshotPath} (SNAPSHOT_PATH, or DATA_DIR/snapshots/current.sqlite): ${reason}\n` +
        'Build one with `npm run build:snapshot`, or publish one with `npm run publish:snapshot`.',
    );
  }
}

main().catch((error: unknown) => {
  // A bad configuration names the variable; anything else is a start-up failure with its stack.
  process.stderr.write(`${error instanceof ConfigError ? error.message : error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
