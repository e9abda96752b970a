// The snapshots agent (a pm2 app on each host of a cluster that runs API workers): installs the snapshot the
// cluster's store announces as current (install.ts) and reloads this host's workers. It watches the
// announcement, and compares once on start (a host that was down or joins later catches up) and every
// SNAPSHOT_RECHECK_MS (an update missed while the bus was away). Its own process, so that fetching and hashing
// a snapshot of 100 MB never stalls a worker's event loop, and so that a host's workers restart and reload
// without it.
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { connect } from 'nats';

import { ConfigError, NATS_SERVER_ORDER } from '../shared/env.ts';
import { createLogger } from '../shared/log/logger.ts';
import { CURRENT_KEY } from '../shared/snapshot-store/names.ts';
import { openSnapshotStore, parseManifest, readManifest } from '../shared/snapshot-store/store.ts';
import { readSnapshotsConfig } from './config.ts';
import { installSnapshot } from './install.ts';
import { snapshotsDirOf } from './local-snapshots.ts';
import { reloadApiWorkers, stackWithAnyWorker } from './reload-workers.ts';

import type { SnapshotManifest } from '../shared/snapshot-store/names.ts';
import type { SnapshotsConfig } from './config.ts';
import type { SnapshotStore } from '../shared/snapshot-store/store.ts';

/** Between tries to bind the store while the cluster has no JetStream leader yet, or after a failed install. */
const RETRY_MS = 2_000;

const log = createLogger({ service: 'snapshots' });
function readConfig(): SnapshotsConfig {
  try {
    const read = readSnapshotsConfig();
    if (read.store !== 'jetstream') throw new ConfigError('Invalid configuration:\n  SNAPSHOT_STORE: the snapshots agent runs on a cluster only (jetstream)');
    return read;
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
}
const config = readConfig();
const { dataDir } = config;

// A fetch cut short by a kill leaves its staging directory; nothing else names it.
const dir = snapshotsDirOf(dataDir);
if (fs.existsSync(dir)) for (const name of fs.readdirSync(dir)) if (name.startsWith('.incoming-')) fs.rmSync(path.join(dir, name), { recursive: true, force: true });

const nc = await connect({ servers: config.natsUrl, ...NATS_SERVER_ORDER, ...config.natsAuth, name: `snapshots-${process.pid}`, maxReconnectAttempts: -1, waitOnFirstConnect: true });

async function bindStore(): Promise<SnapshotStore> {
  for (;;) {
    try {
      return await openSnapshotStore(nc, config.replicas);
    } catch (error) {
      log.error({ msg: 'snapshot store unavailable; retrying', error: String(error) });
      await sleep(RETRY_MS);
    }
  }
}
const store = await bindStore();

let wanted: SnapshotManifest | undefined;
let settling = false;
/** The snapshot was switched and the workers not yet reloaded onto it. */
let reloadDue = false;

/** Installs the latest wanted manifest, one install at a time; a failure is retried after RETRY_MS. */
async function settle(): Promise<void> {
  if (settling) return;
  settling = true;
  try {
    while (wanted !== undefined) {
      const manifest = wanted;
      wanted = undefined;
      try {
        if (await installSnapshot(store, dataDir, manifest)) {
          log.info({ msg: 'switched', snapshot: manifest.name, summary: manifest.summary });
          reloadDue = true;
        }
        // A reload that failed after a switch is tried again with the next comparison, switched or not.
        const stack = reloadDue ? await stackWithAnyWorker(dataDir) : undefined;
        if (stack) log.info({ msg: 'reloaded API workers', workers: await reloadApiWorkers(stack) });
        reloadDue = false;
      } catch (error) {
        log.error({ msg: 'install failed; this host serves its previous snapshot', snapshot: manifest.name, error: String(error) });
        wanted ??= manifest;
        await sleep(RETRY_MS);
      }
    }
  } finally {
    settling = false;
  }
}

function want(manifest: SnapshotManifest): void {
  wanted = manifest;
  void settle();
}

async function recheck(): Promise<void> {
  try {
    const manifest = await readManifest(store, CURRENT_KEY);
    if (manifest !== undefined) want(manifest);
  } catch (error) {
    log.error({ msg: 'cannot read the announced snapshot', error: String(error) });
  }
}

await recheck();
const timer = setInterval(() => void recheck(), config.recheckMs);
const watch = await store.manifests.watch({ key: CURRENT_KEY });
log.info({ msg: 'watching the cluster\'s snapshot store', dataDir });
void (async () => {
  for await (const entry of watch) {
    if (entry.operation !== 'PUT') continue;
    try {
      want(parseManifest(entry.value));
    } catch (error) {
      log.error({ msg: 'ignored a malformed announcement', error: String(error) });
    }
  }
})();

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    clearInterval(timer);
    watch.stop();
    void nc.close().finally(() => process.exit(0));
  });
}
