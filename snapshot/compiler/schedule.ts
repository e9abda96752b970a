// Word of the day: a fixed cycle of preferred classroom words per language (and across languages), indexed by day.
import { createHash } from 'node:crypto';

import type { EntryFacts, FactsTable } from './write/facts.ts';

/**
 * Cycle length: two years of distinct words when the language has them, so no word repeats inside any
 * 366-day window. The cycle depends only on the entries, never on the build date: rebuilding the same
 * corpora on another day gives the same word for every date, and the same content hash.
 */
export const WOTD_CYCLE_DAYS = 732;
/** Days materialised as ready-made bodies from the build date; other dates are computed from the cycle. */
export const WOTD_WINDOW_DAYS = 400;

/** An entry with a pronunciation or an example: something to say or show beside the meaning. */
function illustrated(f: EntryFacts): boolean {
  return f.exampleCount > 0 || f.pronunciationCount > 0;
}

/** Preference: common words first, then words with a pronunciation or an example, then by frequency and global rank. */
function preferred(a: EntryFacts, b: EntryFacts): number {
  if (a.isCommon !== b.isCommon) return a.isCommon ? -1 : 1;
  const ia = illustrated(a);
  const ib = illustrated(b);
  if (ia !== ib) return ia ? -1 : 1;
  const ra = a.frequencyRank ?? Number.MAX_SAFE_INTEGER;
  const rb = b.frequencyRank ?? Number.MAX_SAFE_INTEGER;
  return ra - rb || a.globalRank - b.globalRank;
}

/** Deterministic shuffle: order by a hash of the id, so the cycle does not read alphabetically. */
function shuffled(pool: readonly EntryFacts[]): EntryFacts[] {
  const keyed = pool.map((f) => ({ f, k: createHash('sha256').update(`wotd:${f.id}`).digest('hex') }));
  keyed.sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : a.f.id - b.f.id));
  return keyed.map((x) => x.f);
}

/**
 * The best WOTD_CYCLE_DAYS entries of a language that are fit for a classroom (classroom.ts: no vulgar,
 * offensive or sexual word, none without a meaning of its own, glossed), in preference order.
 */
function candidates(facts: FactsTable, language: string): EntryFacts[] {
  const lang = facts.languages.indexOf(language);
  const globalRanks: number[] = [];
  for (const globalRank of facts.globalRanks()) {
    if (facts.language[globalRank] === lang && facts.glossCount[globalRank] > 0 && facts.classroomFit[globalRank] === 1) globalRanks.push(globalRank);
  }
  const common = (p: number): number => facts.isCommon[p];
  const shown = (p: number): number => (facts.exampleCount[p] > 0 || facts.pronunciationCount[p] > 0 ? 1 : 0);
  const rank = (p: number): number => (facts.frequencyRank[p] === 0 ? Number.MAX_SAFE_INTEGER : facts.frequencyRank[p]);
  globalRanks.sort((a, b) => common(b) - common(a) || shown(b) - shown(a) || rank(a) - rank(b) || a - b);
  return globalRanks.slice(0, WOTD_CYCLE_DAYS).map((p) => facts.get(p));
}

/** The cycle (the entries' global ranks) for one language, or across `languages` when several are given. */
export function wordOfTheDayCycle(facts: FactsTable, languages: readonly string[]): number[] {
  const lists = languages.map((lang) => candidates(facts, lang).sort(preferred));
  const pool: EntryFacts[] = [];
  // Round-robin across languages so the cross-language schedule alternates fairly.
  for (let i = 0; pool.length < WOTD_CYCLE_DAYS; i++) {
    let added = false;
    for (const list of lists) {
      if (i < list.length && pool.length < WOTD_CYCLE_DAYS) {
        pool.push(list[i]);
        added = true;
      }
    }
    if (!added) break;
  }
  return shuffled(pool).map((f) => f.globalRank);
}
