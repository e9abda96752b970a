// The cluster's snapshot store on JetStream (names.ts): opened (made on first use, with its replicas), a
// snapshot's files put and fetched, the manifests announced and read back.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';

import { ErrorCode, NatsError } from 'nats';

import { sha256OfFile } from '../../../snapshot/format/file-hash.ts';
import { downloadsDirOf } from '../../../snapshot/format/downloads.ts';
import { CURRENT_KEY, PREVIOUS_KEY, SNAPSHOT_STORE_NAME, SnapshotManifestSchema } from './names.ts';


import type { JetStreamManager, KV, MsgRequest, NatsConnection, ObjectStore } from 'nats';
import type { SnapshotFile, SnapshotManifest } from './names.ts';

export interface SnapshotStore {
  objects: ObjectStore;
  manifests: KV;
  jsm: JetStreamManager;
}

/**
 * How long a JetStream API request (a stream's info, a consumer made to read an object) may take. nats.js's
 * default, 5 s, was seen to expire on a loaded machine while the cluster still made the consumer.
 */
export const JS_API_TIMEOUT_MS = 15_000;
/** Tries to read one object when a request times out (a stream leader being elected after a member's loss). */
const FETCH_TRIES = 4;
const OBJECT_STREAM = `OBJ_${SNAPSHOT_STORE_NAME}`;

/** Binds to the store, making its two streams with `replicas` copies when they do not exist yet. */
export async function openSnapshotStore(nc: NatsConnection, replicas: number): Promise<SnapshotStore> {
  const js = nc.jetstream({ timeout: JS_API_TIMEOUT_MS });
  const objects = await js.views.os(SNAPSHOT_STORE_NAME, { replicas, description: 'dictionary snapshots' });
  const manifests = await js.views.kv(SNAPSHOT_STORE_NAME, { replicas, history: 5, description: 'the snapshot each host serves' });
  return { objects, manifests, jsm: await nc.jetstreamManager({ timeout: JS_API_TIMEOUT_MS }) };
}

/** The files of snapshot `name` in `dir`: the snapshot, then its downloads, each with its SHA-256. */
export function snapshotFiles(dir: string, name: string): SnapshotFile[] {
  const file = path.join(dir, name);
  const downloads = downloadsDirOf(file);
  const names = [name, ...(fs.existsSync(downloads) ? fs.readdirSync(downloads).sort().map((f) => `${path.basename(downloads)}/${f}`) : [])];
  return names.map((p) => ({ path: p, sha256: sha256OfFile(path.join(dir, p)), bytes: fs.statSync(path.join(dir, p)).size }));
}

/** Puts each file of the manifest from `dir` into the store, one object per file, named by its path. */
export async function putSnapshot(store: SnapshotStore, dir: string, manifest: SnapshotManifest): Promise<void> {
  for (const file of manifest.files) {
    const data = Readable.toWeb(fs.createReadStream(path.join(dir, file.path))) as unknown as ReadableStream<Uint8Array>;
    await store.objects.put({ name: file.path, description: file.sha256 }, data);
  }
}

/** Makes `manifest` the current snapshot and the one it replaces the previous. */
export async function announce(store: SnapshotStore, manifest: SnapshotManifest, previous: SnapshotManifest | undefined): Promise<void> {
  if (previous !== undefined) await store.manifests.put(PREVIOUS_KEY, JSON.stringify(previous));
  await store.manifests.put(CURRENT_KEY, JSON.stringify(manifest));
}

/** The manifest under `key`; undefined when none was announced. A malformed one is an error: never served. */
export async function readManifest(store: SnapshotStore, key: typeof CURRENT_KEY | typeof PREVIOUS_KEY): Promise<SnapshotManifest | undefined> {
  const entry = await store.manifests.get(key);
  if (entry === null || entry.operation !== 'PUT' || entry.value.length === 0) return undefined;
  return parseManifest(entry.value);
}

export function parseManifest(value: Uint8Array): SnapshotManifest {
  return SnapshotManifestSchema.parse(JSON.parse(new TextDecoder().decode(value)));
}

export class SnapshotFetchError extends Error {
  override readonly name = 'SnapshotFetchError';
}

/** fetchOnce, tried again when a request of it times out (FETCH_TRIES). */
export async function fetchFile(store: SnapshotStore, file: SnapshotFile, destination: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetchOnce(store, file, destination);
    } catch (error) {
      if (!(error instanceof NatsError && error.code === ErrorCode.Timeout) || attempt >= FETCH_TRIES) throw error;
    }
  }
}

/**
 * Copies object `file.path` into `destination` chunk by chunk, each read from the stream's leader by sequence
 * (STREAM.MSG.GET), hashing as it writes; throws unless the SHA-256 and length match. Not through nats.js's
 * `get`, which reads with an ephemeral consumer: nats-server before 2.11 may place that consumer on a member
 * that is down (one time in three with one of three down; nats-server pull request 7165), and the read then
 * never starts.
 */
async function fetchOnce(store: SnapshotStore, file: SnapshotFile, destination: string): Promise<void> {
  const info = await store.objects.info(file.path);
  if (info === null || info.deleted) throw new SnapshotFetchError(`${file.path} is not in the snapshot store`);
  const subject = `$O.${SNAPSHOT_STORE_NAME}.C.${info.nuid}`;
  const hash = createHash('sha256');
  const out = await fs.promises.open(destination, 'w', 0o644);
  let bytes = 0;
  try {
    for (let i = 0, seq = 1; i < info.chunks; i++) {
      const query: MsgRequest & { next_by_subj: string } = { seq, next_by_subj: subject };
      const chunk = await store.jsm.streams.getMessage(OBJECT_STREAM, query);
      hash.update(chunk.data);
      bytes += chunk.data.length;
      await out.write(chunk.data);
      seq = chunk.seq + 1;
    }
    await out.sync();
  } finally {
    await out.close();
  }
  const digest = hash.digest('hex');
  if (digest !== file.sha256 || bytes !== file.bytes) {
    throw new SnapshotFetchError(`${file.path}: SHA-256 ${digest.slice(0, 16)}… (${bytes} bytes) differs from the published ${file.sha256.slice(0, 16)}… (${file.bytes} bytes)`);
  }
}

/** Deletes the objects of every snapshot but those of `keep`. */
export async function pruneStore(store: SnapshotStore, keep: readonly SnapshotManifest[]): Promise<void> {
  const kept = new Set(keep.flatMap((m) => m.files.map((f) => f.path)));
  for (const info of await store.objects.list()) {
    if (!info.deleted && !kept.has(info.name)) await store.objects.delete(info.name);
  }
}
