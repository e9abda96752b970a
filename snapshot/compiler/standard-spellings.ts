// Standard spellings of a lexicon written in a spelling of its own (Igbo: Williamson's Onitsha forms): derived by
// the language's rules (snapshot/languages/, StandardSpellings), kept where the language's standard text attests them.
import type Database from 'better-sqlite3';

import { fold } from '../format/text.ts';
import { LANGUAGE_RULES } from '../languages/index.ts';
import type { SpellingRule, StandardSpellings } from '../languages/rules.ts';
import type { Imported } from './importers/staging.ts';
import type { SourceManifest } from './manifest.ts';
import type { Progress } from './progress.ts';

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

export interface Attestation {
  /** Words of the language's standard text (its aligned sentences), folded, with their counts. */
  text: ReadonlyMap<string, number>;
  /** Words of its frequency list, folded. */
  listed: ReadonlySet<string>;
  /** The names of the text and the list, for the notes. */
  textName: string;
  listName: string;
}

/**
 * Adds to the entries of `language`, as `standard-spelling` variants, the derived spellings of their folded
 * headwords that occur in the standard text or the frequency list, and are not already an entry's own folded
 * form in the language. Starts from the attested words (thousands) and reads the rules backwards, so the work
 * does not grow with the number of entries. Returns how many variants were added.
 */
export function addStandardSpellings(db: Database.Database, language: string, spellings: StandardSpellings, attestation: Attestation): number {
  const { text, listed } = attestation;
  const entriesOf = db.prepare<[string, string], { key: string }>('SELECT key FROM stage.entry WHERE language = ? AND folded = ?');
  const insert = db.prepare("INSERT INTO stage.variant (target_key, form, kind, note) VALUES (?, ?, 'standard-spelling', ?)");
  const words = [...new Set([...text.keys(), ...listed])].sort();
  let added = 0;
  db.transaction(() => {
    for (const word of words) {
      if (word === '' || entriesOf.all(language, word).length > 0) continue;
      const times = text.get(word) ?? 0;
      const where = [times > 0 ? `${attestation.textName} (${times} ${times === 1 ? 'time' : 'times'})` : '', listed.has(word) ? attestation.listName : '']
        .filter(Boolean)
        .join(' and ');
      for (const { form, rules } of lexiconSources(word, spellings.rules)) {
        for (const entry of entriesOf.all(language, form)) {
          insert.run(entry.key, word, spellings.note(rules, where));
          added += 1;
        }
      }
    }
  })();
  return added;
}

/**
 * For every language whose rules derive standard spellings: its aligned sentences and its frequency list are the
 * standard text that attests them (docs/standard-igbo.md).
 */
export function addAttestedStandardSpellings(db: Database.Database, imported: Imported, sources: readonly SourceManifest[], progress: Progress): void {
  for (const [language, { standardSpellings }] of Object.entries(LANGUAGE_RULES)) {
    if (!standardSpellings) continue;
    const aligned = imported.aligned.filter((a) => a.language === language);
    const added = addStandardSpellings(db, language, standardSpellings, {
      text: standardWordCounts(aligned.map((a) => a.text)),
      listed: new Set(imported.frequency.keys(language).map((k) => k.key)),
      textName: sources.find((s) => s.id === aligned[0]?.sourceId)?.name ?? `${standardSpellings.name} text`,
      listName: sources.find((s) => s.role === 'frequency' && s.language === language)?.name ?? `a ${standardSpellings.name} word list`,
    });
    progress.log(`${standardSpellings.name} spellings: ${added} attested derived spellings added as variants`);
  }
}
