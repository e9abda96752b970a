// publish:snapshot on a cluster (SNAPSHOT_STORE=jetstream): the snapshot's files go into the cluster's store
// (services/shared/snapshot-store/) and its manifest is announced as current; every host's agent installs it.
// A rollback announces the previous manifest as current again.
import fs from 'node:fs';
import path from 'node:path';

import { connect } from 'nats';

import { CURRENT_KEY, PREVIOUS_KEY } from '../../services/shared/snapshot-store/names.ts';
import { announce, openSnapshotStore, pruneStore, putSnapshot, readManifest, snapshotFiles } from '../../services/shared/snapshot-store/store.ts';
import { snapshotsDirOf } from '../../services/snapshots/local-snapshots.ts';

import type { NatsConnection } from 'nats';
import type { SnapshotManifest } from '../../services/shared/snapshot-store/names.ts';
import type { SnapshotStore } from '../../services/shared/snapshot-store/store.ts';
import type { SnapshotsConfig } from '../../services/snapshots/config.ts';

async function withStore<T>(config: SnapshotsConfig, use: (store: SnapshotStore) => Promise<T>): Promise<T> {
  const nc: NatsConnection = await connect({ servers: config.natsUrl, ...config.natsAuth, name: `publish-snapshot-${process.pid}` });
  try {
    return await use(await openSnapshotStore(nc, config.replicas));
  } finally {
    await nc.drain();
  }
}

/**
 * How many times a publish is tried when a JetStream request times out: after the cluster loses a member,
 * nats-server 2.9 takes several seconds to elect new leaders, and a request made meanwhile times out though the
 * next one is answered. Each try is safe to repeat: objects are put by name, and a snapshot already announced as
 * current is not announced again (which would make it its own previous).
 */
const PUBLISH_ATTEMPTS = 3;

/** Puts snapshot `name` of `dir` into the store and announces it; returns what to tell the operator. */
export async function publishToCluster(config: SnapshotsConfig, dir: string, name: string, summary: string): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await publishOnce(config, dir, name, summary);
    } catch (error) {
      if (attempt >= PUBLISH_ATTEMPTS || (error as { code?: unknown }).code !== 'TIMEOUT') throw error;
      console.error(`publish: the cluster did not answer in time (a leader election?); trying again (${attempt + 1} of ${PUBLISH_ATTEMPTS})`);
    }
  }
}

async function publishOnce(config: SnapshotsConfig, dir: string, name: string, summary: string): Promise<string> {
  const files = snapshotFiles(dir, name);
  const manifest: SnapshotManifest = { format: 1, name, sha256: files[0].sha256, files, summary, publishedAt: new Date().toISOString() };
  return withStore(config, async (store) => {
    const live = await readManifest(store, CURRENT_KEY);
    const announced = live?.name === name && live.sha256 === manifest.sha256;
    if (!announced) {
      await putSnapshot(store, dir, manifest);
      await announce(store, manifest, live);
    }
    // Announced: a store not pruned this time only holds more; the next publish prunes it. A try that finds its
    // snapshot already current does not prune: `live` is then that snapshot, not the previous one to keep.
    const pruned = announced
      ? ''
      : await pruneStore(store, live === undefined ? [manifest] : [manifest, live]).then(
          () => '',
          (error: Error) => `\nwarning: older snapshots stay in the store (${error.message}); the next publish removes them`,
        );
    const bytes = files.reduce((n, f) => n + f.bytes, 0);
    return `published to the cluster: ${name} (${files.length} files, ${bytes} bytes, SHA-256 ${manifest.sha256.slice(0, 16)}…); each host's snapshots agent fetches, checks and switches to it${pruned}`;
  });
}

/**
 * Announces the previous snapshot as current again (and the current one as previous, so a second rollback
 * undoes the first). Its sample queries are run here first when this host holds its file.
 */
export async function rollbackCluster(config: SnapshotsConfig, check: (file: string) => string): Promise<string> {
  return withStore(config, async (store) => {
    const back = await readManifest(store, PREVIOUS_KEY);
    const live = await readManifest(store, CURRENT_KEY);
    if (back === undefined) throw new Error('the cluster\'s store has no previous snapshot to roll back to');
    const local = path.join(snapshotsDirOf(config.dataDir), back.name);
    const checked = fs.existsSync(local) ? `checking ${back.name}: ${check(local)}\n` : '';
    await announce(store, back, live);
    return `${checked}rolled back the cluster: current -> ${back.name}; each host's snapshots agent switches to it`;
  });
}
