// ETags tied to the snapshot version: a body served from a snapshot changes only when the snapshot does.
import type { SnapshotMeta } from '../../../snapshot/reader/snapshot.ts';

/**
 * The strong validator for every snapshot-derived body of one URL. Per-URL bodies are fixed for a snapshot,
 * so the snapshot's identity is enough; `extra` distinguishes bodies of one URL that change within a
 * snapshot (the word of the day of "today").
 */
export function snapshotEtag(meta: SnapshotMeta, extra = ''): string {
  const tag = `${meta.version}-${meta.contentHash.slice(0, 16)}${extra ? `-${extra}` : ''}`;
  // ETag characters: visible ASCII except the double quote (RFC 9110 §8.8.3).
  return `"${tag.replace(/[^\x21\x23-\x7e]/g, '_')}"`;
}

/** RFC 9110 §13.1.2: If-None-Match uses the weak comparison; `*` matches any current representation. */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  for (const part of header.split(',')) {
    const candidate = part.trim();
    const opaque = candidate.startsWith('W/') ? candidate.slice(2) : candidate;
    if (opaque === etag) return true;
  }
  return false;
}
