// One API worker in this process whose clock (routes AND meter) is injected, in front of the real metering
// process and nats-server: the UTC-day rollover of quotas tested at 23:59:59.999 and 00:00:00.000.
// (test/support/stack.ts's in-process stack keeps the meter on the real clock.)
import { closeApp, createApp } from '../../../services/api/app.ts';
import { readApiConfig } from '../../../services/api/config.ts';
import { connectMeter } from '../../../services/api/metering/nats-meter.ts';
import { WorkerCounters } from '../../../services/api/metrics/worker-stats.ts';
import { openSnapshot } from '../../../services/api/snapshot/reader.ts';
import { startBackend } from '../../support/stack.ts';
import { testSnapshotPath } from '../../support/snapshot.ts';

import type { Deps, Logger } from '../../../services/api/deps.ts';
import type { Backend } from '../../support/stack.ts';

export interface ClockedWorker extends Backend {
  baseUrl: string;
  register(): Promise<{ apiKey: string; email: string }>;
}

export async function startClockedWorker(now: () => number): Promise<ClockedWorker> {
  const backend = await startBackend();
  const snapshotPath = testSnapshotPath();
  const config = readApiConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    NATS_URL: backend.natsUrl,
    DATA_DIR: backend.dataDir,
    SNAPSHOT_PATH: snapshotPath,
  });
  const log: Logger = { info: () => undefined, error: () => undefined, flush: () => undefined };
  const snapshot = openSnapshot(snapshotPath);
  // The metering service accepts a day either side of its own, so the worker may name the next day.
  const meter = await connectMeter({ natsUrl: backend.natsUrl, workerName: `clocked-${process.pid}`, now });
  const deps: Deps = { config, snapshot, meter, log, stats: new WorkerCounters(), now };
  const app = createApp(deps);
  await app.listen(0, '127.0.0.1');
  const baseUrl = `http://127.0.0.1:${app.port}`;
  let n = 0;
  return {
    ...backend,
    baseUrl,
    async register() {
      const email = `clock-${process.pid}-${++n}@example.org`;
      const res = await fetch(`${baseUrl}/api/v1/developers`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Clock Test', email }),
      });
      const text = await res.text();
      if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${text}`);
      return { apiKey: (JSON.parse(text) as { apiKey: string }).apiKey, email };
    },
    async stop() {
      await closeApp(app, 2_000);
      await meter.close();
      snapshot.close();
      await backend.stop();
    },
  };
}
