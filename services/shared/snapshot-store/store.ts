// The cluster's snapshot store on JetStream (names.ts): opened (made on first use, with its replicas), a
// snapshot's files put and fetched, the manifests announced and read back.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';

import { sha256OfFile } from '../../../snapshot/format/file-hash.ts';
import { downloadsDirOf } from '../../../snapshot/format/downloads.ts';
import { CURRENT_KEY, PREVIOUS_KEY, SNAPSHOT_STORE_NAME, SnapshotManifestSchema } from './names.ts';

import type { KV, NatsConnection, ObjectStore } from 'nats';
import type { SnapshotFile, SnapshotManifest } from './names.ts';

export interface SnapshotStore {
  objects: ObjectStore;
  manifests: KV;
}

/**
 * How long a JetStream API request (a consumer made to read an object, a stream's info) may take. nats.js's
 * default, 5 s, is less than a cluster takes to place a consumer while it elects leaders after a member's loss,
 * or on a loaded machine; the request is then failed while the server goes on to make it.
 */
export const JS_API_TIMEOUT_MS = 30_000;

/** Binds to the store, making its two streams with `replicas` copies when they do not exist yet. */
export async function openSnapshotStore(nc: NatsConnection, replicas: number): Promise<SnapshotStore> {
  const js = nc.jetstream({ timeout: JS_API_TIMEOUT_MS });
  const objects = await js.views.os(SNAPSHOT_STORE_NAME, { replicas, description: 'dictionary snapshots' });
  const manifests = await js.views.kv(SNAPSHOT_STORE_NAME, { replicas, history: 5, description: 'the snapshot each host serves' });
  return { objects, manifests };
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

/** Streams object `file.path` into `destination`, hashing as it writes; throws unless the SHA-256 and length match. */
export async function fetchFile(store: SnapshotStore, file: SnapshotFile, destination: string): Promise<void> {
  const result = await store.objects.get(file.path);
  if (result === null) throw new SnapshotFetchError(`${file.path} is not in the snapshot store`);
  const hash = createHash('sha256');
  const out = await fs.promises.open(destination, 'w', 0o644);
  let bytes = 0;
  try {
    const reader = result.data.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      hash.update(chunk.value);
      bytes += chunk.value.length;
      await out.write(chunk.value);
    }
    await out.sync();
  } finally {
    await out.close();
  }
  const error = await result.error;
  if (error) throw new SnapshotFetchError(`${file.path}: ${error.message}`);
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
