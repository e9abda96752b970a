// Standard spellings of a lexicon written in a spelling of its own (Igbo: Williamson's Onitsha forms): derived by
// the language's rules (snapshot/languages/, StandardSpellings), kept where the language's standard text attests them.
import type Database from 'better-sqlite3';

import { fold } from '../format/text.ts';
import { LANGUAGE_RULES } from '../languages/index.ts';
import type { SpellingRule, StandardSpellings } from '../languages/rules.ts';
import { AlignedText } from './aligned-text.ts';
import type { Shown } from './aligned-text.ts';
import { meaningsOf } from './english-meaning.ts';
import { lettersOf } from './written-forms.ts';
import type { SourceManifest } from './manifest.ts';
import type { Progress } from './progress.ts';
import type { LexRecord } from './records.ts';

/** The name, in a spelling's note, of the text's own underdots where the lexicon writes others (mbò ~ mbọ). */
export const UNDERDOTS_RULE = 'the underdots the standard text writes';

/** Letters that may change at one place in a form: more places would multiply the candidates past use. */
const MAX_CHANGE_PLACES = 8;

export interface DerivedSpelling {
  form: string;
  /** The rules that relate it to the form it was made from. */
  rules: string[];
}

/** Every spelling made by changing any non-empty subset of the places the rules find (in one direction). */
function respell(folded: string, rules: readonly SpellingRule[], direction: 'toStandard' | 'toLexicon'): DerivedSpelling[] {
  const places: { at: number; length: number; replacement: string; rule: string }[] = [];
  for (const rule of rules) {
    const pattern = direction === 'toStandard' ? rule.lexicon : rule.standard;
    const replacement = direction === 'toStandard' ? rule.to : rule.from;
    for (const m of folded.matchAll(pattern)) places.push({ at: m.index ?? 0, length: m[0].length, replacement, rule: rule.name });
  }
  places.sort((a, b) => a.at - b.at);
  // Overlapping places (the n of nn) cannot both change: the later one is dropped.
  const usable = places.filter((p, i) => i === 0 || p.at >= places[i - 1].at + places[i - 1].length).slice(0, MAX_CHANGE_PLACES);
  const out = new Map<string, Set<string>>();
  for (let mask = 1; mask < 1 << usable.length; mask++) {
    let form = '';
    let from = 0;
    const used = new Set<string>();
    usable.forEach((p, i) => {
      if (!(mask & (1 << i))) return;
      form += folded.slice(from, p.at) + p.replacement;
      from = p.at + p.length;
      used.add(p.rule);
    });
    form += folded.slice(from);
    if (form !== folded && !out.has(form)) out.set(form, used);
  }
  return [...out].map(([form, used]) => ({ form, rules: [...used] }));
}

/** Every spelling the rules derive from a folded lexicon form (not the form itself). */
export function deriveStandardSpellings(folded: string, rules: readonly SpellingRule[]): DerivedSpelling[] {
  return respell(folded, rules, 'toStandard');
}

/** Every lexicon form from which the rules derive a folded standard word: the same relation, read backwards. */
export function lexiconSources(standard: string, rules: readonly SpellingRule[]): DerivedSpelling[] {
  return respell(standard, rules, 'toLexicon');
}

/** Words of standard text, folded, with how often each occurs. */
export function standardWordCounts(texts: Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const text of texts) {
    for (const word of text.match(/[\p{L}\p{M}]+(?:['’][\p{L}\p{M}]+)*/gu) ?? []) {
      const key = fold(word);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  return counts;
}

const asWord = (form: string): string => form.trim().normalize('NFC').toLowerCase();

/** The entries of a language by folded headword and by exact form, and their meanings (english-meaning.ts). */
class Lexicon {
  private readonly byFolded = new Map<string, { key: string; folded: string; exactForm: string }[]>();
  private readonly byExact = new Map<string, string[]>();
  private readonly senses: Database.Statement<[string], { data: string }>;
  private readonly meanings = new Map<string, string[][]>();
  readonly compounds: { key: string; folded: string; exactForm: string }[] = [];

  constructor(db: Database.Database, language: string) {
    this.senses = db.prepare('SELECT data FROM stage.lex WHERE key = ? ORDER BY seq');
    const rows = db.prepare<[string], { key: string; folded: string; exact_form: string }>('SELECT key, folded, exact_form FROM stage.entry WHERE language = ?');
    for (const row of rows.iterate(language)) {
      const list = this.byFolded.get(row.folded) ?? [];
      list.push({ key: row.key, folded: row.folded, exactForm: row.exact_form });
      this.byFolded.set(row.folded, list);
      const exact = asWord(row.exact_form);
      this.byExact.set(exact, [...(this.byExact.get(exact) ?? []), row.key]);
      if (row.folded.includes(' ')) this.compounds.push({ key: row.key, folded: row.folded, exactForm: row.exact_form });
    }
  }

  entries(folded: string): readonly { key: string; folded: string; exactForm: string }[] {
    return this.byFolded.get(folded) ?? [];
  }

  /** The entries written exactly as a word (tones and all, case aside). */
  written(word: string): readonly string[] {
    return this.byExact.get(asWord(word)) ?? [];
  }

  meaningsOf(key: string): string[][] {
    let m = this.meanings.get(key);
    if (!m) {
      m = meaningsOf(this.senses.all(key).flatMap((r) => (JSON.parse(r.data) as LexRecord).senses));
      this.meanings.set(key, m);
    }
    return m;
  }
}

/**
 * A derived reading of a word is kept only when the text shows it (AlignedText.shown: the English lines of the
 * sentences that use the word hold the entry's meaning, twice and well beyond chance), and not far less strongly than
 * the word's best reading: a Standard word the rules could derive from an Onitsha homograph (uburu "brain" from
 * ùbùlù "young chick") is that homograph's spelling only if the text uses it so.
 */
export const WEAKER_READING_FACTOR = 3;

export interface SpellingCounts {
  /** Derived spellings kept: single words, and compounds. */
  words: number;
  compounds: number;
  /** Derived readings of words of the text left out: the English never holds their meaning, or holds another's more. */
  withoutEvidence: number;
  weaker: number;
}

/**
 * Adds to the entries of `language`, as `standard-spelling` variants written as the standard text writes them, the
 * spellings its rules derive from their headwords that the text attests with their meaning (see
 * WEAKER_READING_FACTOR); a compound's derived spelling when the text holds the phrase and the English of its
 * sentences holds the compound's meaning as for a word; and a word's derived spelling that such a compound writes,
 * where the English cannot show the word itself (addCompoundSpellings). Starts from the words of the text and reads
 * the rules backwards, so the work does not grow with the number of entries.
 */
export function addStandardSpellings(db: Database.Database, language: string, spellings: StandardSpellings, text: AlignedText, textName: string): SpellingCounts {
  const lexicon = new Lexicon(db, language);
  const insert = db.prepare("INSERT INTO stage.variant (target_key, form, kind, note) VALUES (?, ?, 'standard-spelling', ?)");
  const counts: SpellingCounts = { words: 0, compounds: 0, withoutEvidence: 0, weaker: 0 };
  const note = (rules: readonly string[], sentences: number, withMeaning: number): string =>
    spellings.note(rules, `${textName} (${sentences} ${sentences === 1 ? 'sentence' : 'sentences'}, ${withMeaning} with the entry's meaning in the English line)`);
  db.transaction(() => {
    const inCompounds = addCompoundSpellings(lexicon, spellings, text, counts, (key, form, rules, sentences, hits) => insert.run(key, form, note(rules, sentences, hits)));
    for (const word of [...text.words()].sort()) {
      addUnderdotSpellings(word, lexicon, text, counts, (key, form, sentences, hits) => insert.run(key, form, note([UNDERDOTS_RULE], sentences, hits)));
      const spelt = text.commonSpelling(word) ?? word;
      const derived = lexiconSources(word, spellings.rules).flatMap(({ form, rules }) => lexicon.entries(form).map((e) => ({ ...e, rules })));
      if (derived.length === 0) continue;
      const sentences = text.sentencesWith(word);
      const strength = (key: string): Shown => text.shown(sentences, lexicon.meaningsOf(key));
      const scored = derived.map((d) => ({ ...d, ...strength(d.key) }));
      const excess = (r: Shown): number => (r.shown ? r.hits - r.expected : 0);
      const best = Math.max(0, ...scored.map(excess), ...lexicon.entries(word).map((e) => excess(strength(e.key))));
      for (const d of scored) {
        const compounds = inCompounds.get(word)?.get(d.key);
        if (!d.shown && compounds) {
          const where = `${textName} within the attested compounds ${[...compounds].sort().join(', ')}`;
          insert.run(d.key, spelt, spellings.note(d.rules, where));
          counts.words += 1;
        } else if (!d.shown) counts.withoutEvidence += 1;
        else if (excess(d) * WEAKER_READING_FACTOR < best) counts.weaker += 1;
        else {
          insert.run(d.key, spelt, note(d.rules, sentences.length, d.hits));
          counts.words += 1;
        }
      }
    }
  })();
  return counts;
}

/**
 * The text's spellings of a word's own letters where its underdots are not the lexicon's (mbò "effort" is Standard
 * mbọ, written like mbọ "nail"): a spelling is kept for an entry whose letters differ from it when the sentences
 * written so show the entry (AlignedText.shown) not far less strongly than any entry of the word (the text writes
 * fire ọkụ and call oku: its ọkụ is not òkù "call").
 */
function addUnderdotSpellings(
  word: string,
  lexicon: Lexicon,
  text: AlignedText,
  counts: SpellingCounts,
  insert: (key: string, form: string, sentences: number, hits: number) => void,
): void {
  const entries = lexicon.entries(word);
  for (const spelt of text.spellingsOf(word)) {
    // A verb root's hyphen is the dictionary's citation, not a letter (nweta is -nweta as written), and n’ime is
    // n'ime: only the letters count.
    const letters = (form: string): string => lettersOf(form.replace(/^-+|-+$/g, '').replace(/’/g, "'"));
    const others = entries.filter((e) => letters(e.exactForm) !== letters(spelt));
    if (others.length === 0) continue;
    const sentences = text.sentencesWritten(spelt);
    const strength = (key: string): Shown => text.shown(sentences, lexicon.meaningsOf(key));
    const excess = (r: Shown): number => (r.shown ? r.hits - r.expected : 0);
    const best = Math.max(0, ...entries.map((e) => excess(strength(e.key))));
    for (const e of others) {
      const r = strength(e.key);
      if (!r.shown) counts.withoutEvidence += 1;
      else if (excess(r) * WEAKER_READING_FACTOR < best) counts.weaker += 1;
      else {
        insert(e.key, spelt, sentences.length, r.hits);
        counts.words += 1;
      }
    }
  }
}

/**
 * A compound's derived spelling, kept when the text holds the phrase and the English of its sentences holds the
 * compound's meaning as for a word (AlignedText.shown, once where the phrase is rare; aka ahụ "last year" is no more
 * than "that hand" where the text has it). Returns what the kept compounds attest of their words: a word the rules
 * changed is the Standard spelling of the entry the compound writes there (ndị ahụ "those" and ebe ahụ "there" are
 * afù "that" written ahụ, a word whose meaning nearly every English line holds), by derived word and entry key, with
 * the compounds' spellings.
 */
function addCompoundSpellings(
  lexicon: Lexicon,
  spellings: StandardSpellings,
  text: AlignedText,
  counts: SpellingCounts,
  insert: (key: string, form: string, rules: readonly string[], sentences: number, hits: number) => void,
): Map<string, Map<string, Set<string>>> {
  const attests = new Map<string, Map<string, Set<string>>>();
  for (const compound of lexicon.compounds) {
    for (const { form, rules } of deriveStandardSpellings(compound.folded, spellings.rules)) {
      const sentences = text.sentencesWithPhrase(form);
      if (sentences.length === 0) continue;
      const { hits, shown } = text.shown(sentences, lexicon.meaningsOf(compound.key));
      if (!shown) {
        counts.withoutEvidence += 1;
        continue;
      }
      const spelt = text.phraseSpelling(form) ?? form;
      insert(compound.key, spelt, rules, sentences.length, hits);
      counts.compounds += 1;
      const derivedWords = form.split(' ');
      const lexiconWords = compound.folded.split(' ');
      const writtenWords = compound.exactForm.trim().split(/\s+/);
      if (writtenWords.length !== derivedWords.length) continue;
      derivedWords.forEach((word, i) => {
        if (word === lexiconWords[i]) return;
        for (const key of lexicon.written(writtenWords[i])) {
          const byKey = attests.get(word) ?? new Map<string, Set<string>>();
          byKey.set(key, (byKey.get(key) ?? new Set<string>()).add(spelt));
          attests.set(word, byKey);
        }
      });
    }
  }
  return attests;
}

/**
 * For every language whose rules derive standard spellings: its aligned sentences are the standard text that attests
 * them, with their English (docs/standard-igbo.md).
 */
export function addAttestedStandardSpellings(db: Database.Database, texts: ReadonlyMap<string, AlignedText>, sources: readonly SourceManifest[], progress: Progress): void {
  for (const [language, { standardSpellings }] of Object.entries(LANGUAGE_RULES)) {
    if (!standardSpellings) continue;
    const text = texts.get(language) ?? new AlignedText([]);
    const textName = sources.find((s) => s.id === text.sentences[0]?.sourceId)?.name ?? `${standardSpellings.name} text`;
    const c = addStandardSpellings(db, language, standardSpellings, text, textName);
    progress.log(
      `${standardSpellings.name} spellings: ${c.words} words and ${c.compounds} compounds added as variants; left out ${c.withoutEvidence} derived readings whose meaning the English never holds, ${c.weaker} far weaker than another reading`,
    );
  }
}
