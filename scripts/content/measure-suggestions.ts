// Prints how often "did you mean" finds a real word typed with one letter changed: a seeded draw of headwords of
// the active languages, each with one letter of its folded form replaced, searched in its language.
// `node --import tsx scripts/content/measure-suggestions.ts [--snapshot FILE] [--count 100] [--seed 43] [--list]`
import { createHash } from 'node:crypto';
import path from 'node:path';
import { parseArgs } from 'node:util';

import Database from 'better-sqlite3';

import { fold } from '../../snapshot/format/text.ts';
import { openSnapshot } from '../../snapshot/reader/reader.ts';
import type { Snapshot } from '../../snapshot/reader/snapshot.ts';
import { seededOrder } from './seeded.ts';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
/** Shorter words are left out: a two-letter word with a letter changed is as likely another word as a slip. */
const MIN_LETTERS = 3;

interface Word {
  id: number;
  language: string;
  headword: string;
  folded: string;
}

interface Trial {
  word: Word;
  slip: string;
  found: boolean;
  suggested: string[];
}

/** The headwords of the active languages whose folded form is one word of Latin letters. */
function words(file: string): Word[] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare('SELECT summary FROM entry_summary ORDER BY global_rank').pluck().all() as string[];
    return rows
      .map((s) => JSON.parse(s) as { id: number; language: string; headword: string })
      .map((s) => ({ id: s.id, language: s.language, headword: s.headword, folded: fold(s.headword) }))
      .filter((w) => /^[a-z]+$/.test(w.folded) && w.folded.length >= MIN_LETTERS);
  } finally {
    db.close();
  }
}

/** The word with one letter replaced by another, both chosen by the seed. */
function slipOf(word: Word, seed: number): string {
  const h = createHash('sha256').update(`${seed}\u0000slip\u0000${word.id}`).digest();
  const at = h.readUInt32BE(0) % word.folded.length;
  const others = [...LETTERS].filter((c) => c !== word.folded[at]);
  return word.folded.slice(0, at) + others[h.readUInt32BE(4) % others.length] + word.folded.slice(at + 1);
}

/** The trial of one word, or undefined when its slip is itself a word of the language (then it is no slip). */
function trial(snapshot: Snapshot, word: Word, seed: number): Trial | undefined {
  const slip = slipOf(word, seed);
  const page = snapshot.search({ q: slip, language: word.language, scope: 'headword', page: 1, limit: 20 });
  if (page.items.some((i) => fold(i.headword) === slip)) return undefined;
  const suggested = page.suggestions.map((s) => s.text);
  return { word, slip, found: page.suggestions.some((s) => s.language === word.language && fold(s.text) === word.folded), suggested };
}

const { values } = parseArgs({
  options: {
    snapshot: { type: 'string', default: '.tmp/test-snapshot.sqlite' },
    count: { type: 'string', default: '100' },
    seed: { type: 'string', default: '43' },
    list: { type: 'boolean', default: false },
  },
});
const file = path.resolve(values.snapshot);
const count = Number(values.count);
const seed = Number(values.seed);
const snapshot = openSnapshot(file);
try {
  const trials: Trial[] = [];
  for (const word of seededOrder(words(file), (w) => String(w.id), seed)) {
    if (trials.length === count) break;
    const t = trial(snapshot, word, seed);
    if (t) trials.push(t);
  }
  const found = trials.filter((t) => t.found).length;
  const byLanguage = new Map<string, [number, number]>();
  for (const t of trials) {
    const [n, f] = byLanguage.get(t.word.language) ?? [0, 0];
    byLanguage.set(t.word.language, [n + 1, f + (t.found ? 1 : 0)]);
  }
  process.stdout.write(`snapshot ${snapshot.meta.version}, seed ${seed}\n`);
  process.stdout.write(`the word among the suggestions: ${found} of ${trials.length} (${((100 * found) / trials.length).toFixed(0)} %)\n`);
  process.stdout.write(`by language: ${[...byLanguage].sort().map(([l, [n, f]]) => `${l} ${f}/${n}`).join(', ')}\n`);
  for (const t of trials.filter((x) => values.list || !x.found)) {
    process.stdout.write(`${t.found ? 'found ' : 'missed'} ${t.word.language} ${t.slip} → ${t.word.headword}: ${t.suggested.join(', ') || '(none)'}\n`);
  }
} finally {
  snapshot.close();
}
