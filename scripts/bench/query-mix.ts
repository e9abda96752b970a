// Draws real search queries from a snapshot: exact (tone-marked), folded, prefix and English gloss, with and
// without a language, all distinct, interleaved so that any stretch of the list has every kind.
import type { SearchQuery, Snapshot } from '../../snapshot/reader/snapshot.ts';
import type { WordSummary } from '../../services/shared/schemas.ts';

export type QueryKind = 'exact' | 'folded' | 'prefix' | 'gloss';
export const QUERY_KINDS: readonly QueryKind[] = ['exact', 'folded', 'prefix', 'gloss'];

export interface MixQuery {
  kind: QueryKind | 'worst';
  /** Short description for reports (worst-case queries). */
  label?: string;
  /** Path and query string as a client sends it. */
  path: string;
}

/** Browse pages of 100 read per language; a larger language is sampled at evenly spread pages. */
const SAMPLE_PAGE_SIZE = 100;
const MAX_PAGE = 10_000;
/** Gloss words that say nothing about the entry; they are worst cases, not typical queries. */
const STOPWORDS = new Set(
  'a an the of to in on at by for with from and or as is be it its that this which who not no one any some'
    .split(' '),
);

/** Lower-cased letters without tones or diacritics (the search's folded form, for building queries only). */
export function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase().normalize('NFC');
}

/** Up to `maxPagesPerLanguage` browse pages of each active language, spread over the whole alphabet. */
export function sampleEntries(snapshot: Snapshot, maxPagesPerLanguage: number): WordSummary[] {
  const entries: WordSummary[] = [];
  for (const language of snapshot.languages()) {
    if (language.status !== 'active' || language.wordCount === 0) continue;
    const pages = Math.min(MAX_PAGE, Math.ceil(language.wordCount / SAMPLE_PAGE_SIZE));
    const step = Math.max(1, pages / maxPagesPerLanguage);
    const seen = new Set<number>();
    for (let p = 1; p <= pages; p += step) {
      const page = Math.floor(p);
      if (seen.has(page)) continue;
      seen.add(page);
      entries.push(...snapshot.search({ language: language.code, page, limit: SAMPLE_PAGE_SIZE }).items);
    }
  }
  return entries;
}

/** Small deterministic PRNG, so that a run's query mix is reproducible. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

export function searchPath(q: string | undefined, params: Record<string, string | number | undefined> = {}): string {
  const parts: string[] = [];
  if (q !== undefined) parts.push(`q=${encodeURIComponent(q)}`);
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) parts.push(`${name}=${encodeURIComponent(String(value))}`);
  }
  return `/api/v1/words${parts.length ? `?${parts.join('&')}` : ''}`;
}

function glossWords(entry: WordSummary): string[] {
  const words = new Set<string>();
  for (const gloss of entry.glosses) {
    for (const word of gloss.toLowerCase().split(/[^\p{L}]+/u)) {
      if (word.length >= 3 && !STOPWORDS.has(word)) words.add(word);
    }
  }
  return [...words];
}

function candidates(entry: WordSummary, kind: QueryKind, random: () => number): string[] {
  const form = entry.exactForm.trim();
  const folded = fold(form);
  switch (kind) {
    case 'exact':
      return form ? [form] : [];
    case 'folded':
      return folded ? [folded] : [];
    case 'prefix': {
      const letters = [...folded];
      if (letters.length < 3) return [];
      const length = 2 + Math.floor(random() * Math.min(3, letters.length - 2));
      return [letters.slice(0, length).join('')];
    }
    case 'gloss': {
      const words = shuffle(glossWords(entry), random);
      return words.slice(0, 2);
    }
  }
}

/**
 * `count` distinct search paths (plus `holdout` more, disjoint from them), cycling through the kinds and
 * alternating with and without the entry's language.
 */
export function buildQueryMix(
  entries: readonly WordSummary[],
  count: number,
  seed = 7,
): MixQuery[] {
  const random = mulberry32(seed);
  const order = shuffle([...entries], random);
  const queues = new Map<QueryKind, MixQuery[]>(QUERY_KINDS.map((k) => [k, []]));
  const seen = new Set<string>();
  for (const entry of order) {
    for (const kind of QUERY_KINDS) {
      for (const q of candidates(entry, kind, random)) {
        if (q.length === 0 || q.length > 200) continue;
        const variants = random() < 0.5
          ? [searchPath(q, { language: entry.language }), searchPath(q)]
          : [searchPath(q), searchPath(q, { language: entry.language })];
        for (const path of variants) {
          if (seen.has(path)) continue;
          seen.add(path);
          queues.get(kind)?.push({ kind, path });
        }
      }
    }
  }
  const mix: MixQuery[] = [];
  const cursors = new Map<QueryKind, number>(QUERY_KINDS.map((k) => [k, 0]));
  while (mix.length < count) {
    let added = false;
    for (const kind of QUERY_KINDS) {
      const queue = queues.get(kind) ?? [];
      const at = cursors.get(kind) ?? 0;
      if (at < queue.length && mix.length < count) {
        mix.push(queue[at]);
        cursors.set(kind, at + 1);
        added = true;
      }
    }
    if (!added) break;
  }
  return mix;
}

/** Broad queries that make the search rank the most rows: one-letter prefixes, common gloss words, deep pages. */
export function worstQueries(entries: readonly WordSummary[], languages: readonly string[]): MixQuery[] {
  const initials = new Map<string, number>();
  const glossCounts = new Map<string, number>();
  for (const entry of entries) {
    const first = [...fold(entry.exactForm)][0];
    if (first && /\p{L}/u.test(first)) initials.set(first, (initials.get(first) ?? 0) + 1);
    for (const gloss of entry.glosses) {
      for (const word of gloss.toLowerCase().split(/[^\p{L}]+/u)) {
        if (word.length >= 2) glossCounts.set(word, (glossCounts.get(word) ?? 0) + 1);
      }
    }
  }
  const top = <K>(counts: Map<K, number>, n: number): K[] =>
    [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k]) => k);
  const queries: MixQuery[] = [];
  const add = (label: string, path: string) => queries.push({ kind: 'worst', label, path });
  for (const letter of top(initials, 6)) {
    add(`prefix "${letter}"`, searchPath(letter));
    for (const language of languages) add(`prefix "${letter}" ${language}`, searchPath(letter, { language }));
    add(`prefix "${letter}" page 50`, searchPath(letter, { page: 50 }));
  }
  for (const word of top(glossCounts, 6)) {
    add(`gloss "${word}"`, searchPath(word));
    add(`gloss "${word}" limit 100`, searchPath(word, { limit: 100 }));
  }
  for (const language of languages) {
    add(`browse ${language} page 1`, searchPath(undefined, { language }));
    add(`browse ${language} page 10000`, searchPath(undefined, { language, page: MAX_PAGE }));
    add(`browse ${language} noun page 500`, searchPath(undefined, { language, partOfSpeech: 'noun', page: 500 }));
  }
  add('browse all page 10000 limit 100', searchPath(undefined, { page: MAX_PAGE, limit: 100 }));
  return queries;
}

/** The reader query a search path stands for (the route's defaults: page 1, limit 20). */
export function toSearchQuery(path: string): SearchQuery {
  const params = new URL(path, 'http://x').searchParams;
  const q = params.get('q');
  const language = params.get('language');
  const partOfSpeech = params.get('partOfSpeech');
  return {
    ...(q !== null ? { q } : {}),
    ...(language !== null ? { language } : {}),
    ...(partOfSpeech !== null ? { partOfSpeech } : {}),
    page: Number(params.get('page') ?? 1),
    limit: Number(params.get('limit') ?? 20),
  };
}
