// What the HTTP and search sections load: the search mix (distinct real queries), the queries held out of it
// for the raw ceiling to replay, and the paths of the lookups. Drawn once from the working tree's snapshot of
// the real corpora, so that a --compare ref is loaded with the very same requests.
import fs from 'node:fs';
import path from 'node:path';

import { openSnapshot } from '../../snapshot/reader/reader.ts';
import { buildQueryMix, mulberry32, sampleEntries, shuffle, toSearchQuery } from './query-mix.ts';
import type { MixQuery } from './query-mix.ts';
import type { ScenarioPaths } from './scenarios.ts';

/** Search bodies the raw server replays for the mix: held out of the mix, so that the stack's caches stay cold. */
const RAW_POOL_SIZE = 300;
const MIN_MIX = 2_000;

export interface Workload extends ScenarioPaths {
  mix: MixQuery[];
  holdout: MixQuery[];
  /** The mix as wrk reads it (one path a line) and as the bare loop reads it (JSON). */
  mixFile: string;
  mixJson: string;
  byKind: Record<string, number>;
  withLanguage: number;
}

export function drawWorkload(snapshotPath: string, count: number, dir: string): Workload {
  const snapshot = openSnapshot(snapshotPath);
  try {
    const entries = sampleEntries(snapshot, Number.MAX_SAFE_INTEGER);
    const all = shuffle(buildQueryMix(entries, count + RAW_POOL_SIZE), mulberry32(3));
    const holdout = all.slice(0, RAW_POOL_SIZE);
    const mix = all.slice(RAW_POOL_SIZE);
    if (mix.length < MIN_MIX) throw new Error(`only ${mix.length} distinct queries could be drawn from the snapshot`);
    const byKind: Record<string, number> = {};
    for (const q of mix) byKind[q.kind] = (byKind[q.kind] ?? 0) + 1;
    // A common kind of query in the common script: a folded Latin-script word with a language.
    const latin = (q: MixQuery) => /^[\p{Script=Latin} -]+$/u.test(toSearchQuery(q.path).q ?? '');
    const repeated = holdout.find((q) => q.kind === 'folded' && q.path.includes('language=') && latin(q)) ?? holdout[0];
    // A real, ordinary entry: the first result of the repeated query.
    const first = snapshot.search({ ...toSearchQuery(repeated.path), limit: 1 }).items[0] ?? entries[Math.floor(entries.length / 2)];
    const mixFile = path.join(dir, 'mix.txt');
    const mixJson = path.join(dir, 'mix.json');
    fs.writeFileSync(mixFile, `${mix.map((q) => q.path).join('\n')}\n`);
    fs.writeFileSync(mixJson, JSON.stringify(mix));
    return {
      mix,
      holdout,
      mixFile,
      mixJson,
      byKind,
      withLanguage: mix.filter((q) => q.path.includes('language=')).length,
      repeatedSearch: repeated.path,
      entryId: `/api/v1/words/${first.id}`,
      entrySlug: `/api/v1/words/${encodeURIComponent(first.slug)}`,
    };
  } finally {
    snapshot.close();
  }
}
