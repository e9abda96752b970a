// The everyday-words fixture (test/fixtures/everyday-words/<language>.json) measured against a snapshot: per
// language, how often a common word of the language finds its entry in the top 3, and a common English word finds
// an entry with that meaning first. The fixture was drawn and checked by reading the corpora (docs/answers.md).
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { z } from 'zod';

import type { WordSummary } from '../../services/shared/schemas.ts';
import type { Snapshot } from '../../snapshot/reader/snapshot.ts';

export const FIXTURE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'test', 'fixtures', 'everyday-words');
/** A native word passes when its entry is among the first this many results. */
export const NATIVE_TOP = 3;
/** Targets of the measure, wherever the data holds the word (every item of the fixture is held). */
export const NATIVE_TARGET = 0.95;
export const ENGLISH_TARGET = 0.9;
/** Results read for an English word: its entry is looked for past the language's own headwords written so. */
const ENGLISH_READ = 20;

const ExpectSchema = z.object({
  headword: z.string(),
  partOfSpeech: z.string().optional(),
  /** A word the entry's glosses must hold, where a headword and part of speech name several entries. */
  gloss: z.string().optional(),
});
const ItemSchema = z.object({ q: z.string(), meaning: z.string().optional(), expect: z.array(ExpectSchema).min(1) });
const NotHeldSchema = z.object({ kind: z.enum(['native', 'english']), q: z.string(), meaning: z.string(), note: z.string() });
export const FixtureSchema = z.object({
  language: z.string(),
  native: z.array(ItemSchema),
  english: z.array(ItemSchema),
  notHeld: z.array(NotHeldSchema),
});
export type Fixture = z.infer<typeof FixtureSchema>;
type Item = z.infer<typeof ItemSchema>;
type Expect = z.infer<typeof ExpectSchema>;

export interface ItemResult {
  q: string;
  pass: boolean;
  /** English words: passed only because the language's own headwords written as the query come first. */
  afterHeadwords?: boolean;
  /** The first results, as `form (matchType) gloss`. */
  got: string[];
  expected: string;
}

export interface LanguageResult {
  language: string;
  native: ItemResult[];
  english: ItemResult[];
  nativeRate: number;
  englishRate: number;
  notHeld: Fixture['notHeld'];
}

export function loadFixtures(dir = FIXTURE_DIR): Fixture[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => FixtureSchema.parse(JSON.parse(readFileSync(path.join(dir, f), 'utf8'))));
}

const nfc = (s: string): string => s.normalize('NFC');

function wordIn(glosses: readonly string[], word: string): boolean {
  const escaped = word.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'u').test(glosses.join(' ; ').toLowerCase());
}

function matches(item: WordSummary, expect: readonly Expect[]): boolean {
  return expect.some(
    (e) =>
      nfc(item.exactForm) === nfc(e.headword) &&
      (e.partOfSpeech === undefined || item.partOfSpeech === e.partOfSpeech) &&
      (e.gloss === undefined || wordIn(item.glosses, e.gloss)),
  );
}

const show = (items: readonly WordSummary[]): string[] => items.map((i) => `${i.exactForm} (${i.matchType}) ${i.glosses.slice(0, 2).join('; ').slice(0, 60)}`);
const expected = (item: Item): string => item.expect.map((e) => [e.headword, e.partOfSpeech, e.gloss && `"${e.gloss}"`].filter(Boolean).join(' ')).join(' | ');

function native(snapshot: Snapshot, language: string, item: Item): ItemResult {
  const items = snapshot.search({ q: item.q, language, page: 1, limit: NATIVE_TOP }).items;
  return { q: item.q, pass: items.some((i) => matches(i, item.expect)), got: show(items), expected: expected(item) };
}

/**
 * An English word passes when an entry with that meaning comes first, or right after the language's own headwords
 * written exactly as the query (exact matches: Yoruba "sun" is sun "to roast" before òòrùn "sun"). A headword that
 * only folds like it (Yoruba ẹyẹ "bird" for "eye") must come after the meaning.
 */
function english(snapshot: Snapshot, language: string, item: Item): ItemResult {
  const items = snapshot.search({ q: item.q, language, page: 1, limit: ENGLISH_READ }).items;
  const at = items.findIndex((i) => matches(i, item.expect));
  const headwordsBefore = at > 0 && items.slice(0, at).every((i) => i.matchType === 'exact');
  return { q: item.q, pass: at === 0 || headwordsBefore, afterHeadwords: headwordsBefore || undefined, got: show(items.slice(0, Math.max(3, at + 1))), expected: expected(item) };
}

export function evaluate(snapshot: Snapshot, fixture: Fixture): LanguageResult {
  const nativeResults = fixture.native.map((i) => native(snapshot, fixture.language, i));
  const englishResults = fixture.english.map((i) => english(snapshot, fixture.language, i));
  const rate = (rs: ItemResult[]): number => (rs.length === 0 ? 1 : rs.filter((r) => r.pass).length / rs.length);
  return {
    language: fixture.language,
    native: nativeResults,
    english: englishResults,
    nativeRate: rate(nativeResults),
    englishRate: rate(englishResults),
    notHeld: fixture.notHeld,
  };
}

const percent = (r: number): string => `${(r * 100).toFixed(1)} %`;

/** The per-language table, as Markdown. */
export function rateTable(results: readonly LanguageResult[]): string {
  const rows = results.map((r) => {
    const n = r.native.filter((i) => i.pass).length;
    const e = r.english.filter((i) => i.pass).length;
    const after = r.english.filter((i) => i.afterHeadwords).length;
    return `| ${r.language} | ${n}/${r.native.length} (${percent(r.nativeRate)}) | ${e}/${r.english.length} (${percent(r.englishRate)})${after > 0 ? `, ${after} after the language's own headwords` : ''} | ${r.notHeld.length} |`;
  });
  return [`| language | native word's entry in the top ${NATIVE_TOP} | English meaning first | words not held |`, '|---|---|---|---|', ...rows].join('\n');
}

/** Every failing item, for reading. */
export function failures(results: readonly LanguageResult[]): string {
  const lines: string[] = [];
  for (const r of results) {
    for (const [kind, items] of [['native', r.native], ['english', r.english]] as const) {
      for (const i of items.filter((x) => !x.pass)) lines.push(`${r.language} ${kind} ${i.q}: expected ${i.expected}; got ${i.got.join(' · ') || 'nothing'}`);
    }
  }
  return lines.join('\n');
}
