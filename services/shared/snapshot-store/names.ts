// What a cluster's snapshot store holds (store.ts writes it, each host's agent reads it): the files of a
// snapshot as objects named by their path under DATA_DIR/snapshots, and in a key-value bucket the manifest of
// the snapshot every host should serve (`current`) and of the one before it (`previous`, for rollback).
import { z } from 'zod';

/** The object store and the key-value bucket share this name (their streams are OBJ_… and KV_…). */
export const SNAPSHOT_STORE_NAME = 'dict-snapshots';
export const CURRENT_KEY = 'current';
export const PREVIOUS_KEY = 'previous';
/** Three copies: the store survives the loss of any one member of a three-server cluster. */
export const DEFAULT_SNAPSHOT_REPLICAS = 3;

const sha256 = z.string().regex(/^[0-9a-f]{64}$/);
/** A snapshot's file name, as the build names it under DATA_DIR/snapshots. */
export const SNAPSHOT_NAME = /^snapshot-[A-Za-z0-9_-][A-Za-z0-9._-]*\.sqlite$/;
/** The snapshot itself, or one file of its downloads directory: never a path that leaves DATA_DIR/snapshots. */
const FILE_PATH = /^snapshot-[A-Za-z0-9_-][A-Za-z0-9._-]*\.sqlite(\.downloads\/[A-Za-z0-9][A-Za-z0-9._-]*)?$/;

export const SnapshotFileSchema = z.object({
  path: z.string().regex(FILE_PATH),
  sha256,
  bytes: z.number().int().min(0),
});
export type SnapshotFile = z.infer<typeof SnapshotFileSchema>;

export const SnapshotManifestSchema = z.object({
  format: z.literal(1),
  /** The snapshot's file name; its SHA-256 is `sha256`, the one the build wrote beside it. */
  name: z.string().regex(SNAPSHOT_NAME),
  sha256,
  /** The snapshot and each file of its downloads, each checked against its SHA-256 when fetched. */
  files: z.array(SnapshotFileSchema).min(1),
  /** What the sample queries said of it when published (languages, entries, downloads). */
  summary: z.string(),
  publishedAt: z.string(),
});
export type SnapshotManifest = z.infer<typeof SnapshotManifestSchema>;
