// Installs an announced snapshot on this host: the files it lacks are fetched from the cluster's store into a
// staging directory, each checked against its SHA-256; the snapshot passes its sample queries; then it is moved
// beside the others and current.sqlite switched to it atomically. Nothing is switched when any step fails.
import fs from 'node:fs';
import path from 'node:path';

import { readSha256Sidecar, SHA256_SUFFIX } from '../../snapshot/format/file-hash.ts';
import { downloadsDirOf } from '../../snapshot/format/downloads.ts';
import { sampleQueries } from '../../snapshot/reader/sample-queries.ts';
import { fetchFile } from '../shared/snapshot-store/store.ts';
import { CURRENT_LINK, linkTarget, pruneSnapshots, snapshotsDirOf, switchTo } from './local-snapshots.ts';

import type { SnapshotManifest } from '../shared/snapshot-store/names.ts';
import type { SnapshotStore } from '../shared/snapshot-store/store.ts';

/** Whether this host serves `manifest` already: current.sqlite names its file, whose SHA-256 is the published one. */
export function serves(dataDir: string, manifest: SnapshotManifest): boolean {
  const file = path.join(snapshotsDirOf(dataDir), manifest.name);
  return linkTarget(path.join(snapshotsDirOf(dataDir), CURRENT_LINK)) === file && readSha256Sidecar(file) === manifest.sha256;
}

/** Whether every file of `manifest` is on this host already (the publishing host, or a rollback's target). */
function holds(dir: string, manifest: SnapshotManifest): boolean {
  return readSha256Sidecar(path.join(dir, manifest.name)) === manifest.sha256 && manifest.files.every((f) => fs.existsSync(path.join(dir, f.path)));
}

/** Fetches the manifest's files into a staging directory, checks them, and moves them beside the others. */
async function fetchInto(store: SnapshotStore, dir: string, manifest: SnapshotManifest): Promise<string> {
  const staging = fs.mkdtempSync(path.join(dir, '.incoming-'));
  try {
    const staged = path.join(staging, manifest.name);
    for (const file of manifest.files) {
      const destination = path.join(staging, file.path);
      fs.mkdirSync(path.dirname(destination), { recursive: true });
      await fetchFile(store, file, destination);
    }
    fs.writeFileSync(`${staged}${SHA256_SUFFIX}`, `${manifest.sha256}  ${manifest.name}\n`);
    sampleQueries(staged);
    // The snapshot file last: until it is in place, nothing names the downloads and the sidecar moved before it.
    const final = path.join(dir, manifest.name);
    fs.rmSync(downloadsDirOf(final), { recursive: true, force: true });
    if (fs.existsSync(downloadsDirOf(staged))) fs.renameSync(downloadsDirOf(staged), downloadsDirOf(final));
    fs.renameSync(`${staged}${SHA256_SUFFIX}`, `${final}${SHA256_SUFFIX}`);
    fs.renameSync(staged, final);
    return final;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** Makes `manifest` this host's current snapshot; returns false when it was already. Throws when a check fails. */
export async function installSnapshot(store: SnapshotStore, dataDir: string, manifest: SnapshotManifest): Promise<boolean> {
  if (serves(dataDir, manifest)) return false;
  const dir = snapshotsDirOf(dataDir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = holds(dir, manifest) ? path.join(dir, manifest.name) : await fetchInto(store, dir, manifest);
  sampleQueries(file);
  switchTo(dir, file);
  pruneSnapshots(dir);
  return true;
}
