// The entries a word written in a text can be (its readings): a headword, a listed or inflected form, or a variant
// that folds like it, when every mark the text writes agrees (snapshot/compiler/written-forms.ts).
import type Database from 'better-sqlite3';

import type { PartOfSpeech } from '../../services/shared/vocabulary.ts';
import { letterMarkDifferences } from '../format/letter-marks.ts';
import { fold } from '../format/text.ts';
import { languageRules } from '../languages/index.ts';
import { writtenWords } from './aligned-text.ts';
import { meaningsOf } from './english-meaning.ts';
import type { LexRecord } from './records.ts';
import { canBeWritingOf } from './written-forms.ts';

/**
 * How a reading was reached, best first: the entry's own headword, a variant, a form the source lists, an inflection
 * stored with the entry, or the language's inflection rules read backwards (`analyse`) when nothing else is.
 */
export type ReadingVia = 'headword' | 'variant' | 'form' | 'inflection' | 'analysis';
const VIA_ORDER: readonly ReadingVia[] = ['headword', 'variant', 'form', 'inflection', 'analysis'];

interface Head {
  key: string;
  exactForm: string;
  pos: string;
}

export interface Reading {
  entryKey: string;
  /** The form of the entry the word was matched with. */
  form: string;
  via: ReadingVia;
}

export class Readings {
  private readonly byKey = new Map<string, Reading[]>();
  private readonly meanings = new Map<string, string[][]>();
  private readonly senses: Database.Statement<[string], { data: string }>;
  private readonly trustsLetters: boolean;
  /** Every entry of the language by its folded headword, for the readings by analysis (none without `analyse`). */
  private readonly heads = new Map<string, Head[]>();

  /**
   * The readings of a language's words; `wanted` (folded keys) limits the index to the words that will be asked
   * about (Zulu alone has 395,624 inflected forms).
   */
  constructor(
    db: Database.Database,
    readonly language: string,
    wanted?: ReadonlySet<string>,
  ) {
    this.trustsLetters = languageRules(language).trustsWrittenLetters ?? false;
    this.senses = db.prepare('SELECT data FROM stage.lex WHERE key = ? ORDER BY seq');
    const add = (form: string, entryKey: string, via: ReadingVia): void => {
      const key = fold(form);
      if (key === '' || (wanted && !wanted.has(key))) return;
      const list = this.byKey.get(key) ?? [];
      list.push({ entryKey, form, via });
      this.byKey.set(key, list);
    };
    const entries = db.prepare<[string], { key: string; exact_form: string; pos: string; data: string }>(
      'SELECT e.key AS key, e.exact_form AS exact_form, e.pos AS pos, l.data AS data FROM stage.entry e JOIN stage.lex l ON l.key = e.key WHERE e.language = ?',
    );
    const analyses = languageRules(language).analyse !== undefined;
    for (const row of entries.iterate(language)) {
      if (analyses) {
        const folded = fold(row.exact_form);
        this.heads.set(folded, [...(this.heads.get(folded) ?? []), { key: row.key, exactForm: row.exact_form, pos: row.pos }]);
      }
      add(row.exact_form, row.key, 'headword');
      for (const f of (JSON.parse(row.data) as LexRecord).forms ?? []) add(f.form, row.key, 'form');
    }
    const variants = db.prepare<[string], { key: string; form: string; kind: string }>(
      'SELECT v.target_key AS key, v.form AS form, v.kind AS kind FROM stage.variant v JOIN stage.entry e ON e.key = v.target_key WHERE e.language = ?',
    );
    for (const v of variants.iterate(language)) add(v.form, v.key, v.kind === 'plural' ? 'form' : 'variant');
    const inflections = db.prepare<[string], { form: string; key: string }>(
      'SELECT i.key AS form, i.entry_key AS key FROM stage.entry_inflection i JOIN stage.entry e ON e.key = i.entry_key WHERE e.language = ?',
    );
    for (const i of inflections.iterate(language)) add(i.form, i.key, 'inflection');
  }

  /** The entries `written` can be, each once, by its best way; none when no form folds like it or a mark disagrees. */
  of(written: string): Reading[] {
    const found = new Map<string, Reading>();
    for (const r of this.byKey.get(fold(written)) ?? []) {
      // Inflected forms are stored folded: their marks are not known, so they only need to fold alike.
      if (r.via !== 'inflection' && !canBeWritingOf(written, r.form, this.trustsLetters)) continue;
      const seen = found.get(r.entryKey);
      if (!seen || VIA_ORDER.indexOf(r.via) < VIA_ORDER.indexOf(seen.via)) found.set(r.entryKey, r);
    }
    return [...found.values()];
  }

  /**
   * The entries a word no entry is written as inflects, by the language's rules read backwards as the search reads
   * them (snapshot/reader/inflected.ts): the readings with the fewest parts taken off that find an entry of their part
   * of speech, and of those the entries whose letters agree best with the word's. None for a language without rules.
   */
  analysed(written: string): Reading[] {
    const analyse = languageRules(this.language).analyse;
    if (!analyse) return [];
    const byParts = [...analyse(fold(written), written.toLowerCase())].sort((a, b) => a.parts - b.parts);
    for (const parts of new Set(byParts.map((a) => a.parts))) {
      const found = new Map<string, { reading: Reading; differences: number }>();
      for (const analysis of byParts.filter((a) => a.parts === parts)) {
        for (const head of this.heads.get(analysis.lemma) ?? []) {
          if (!analysis.partsOfSpeech.includes(head.pos as PartOfSpeech) || (analysis.accepts && !analysis.accepts(head.exactForm))) continue;
          const differences = analysis.written === undefined ? 0 : letterMarkDifferences(analysis.written, head.exactForm);
          const seen = found.get(head.key);
          if (!seen || differences < seen.differences) found.set(head.key, { reading: { entryKey: head.key, form: head.exactForm, via: 'analysis' }, differences });
        }
      }
      if (found.size === 0) continue;
      const fewest = Math.min(...[...found.values()].map((f) => f.differences));
      return [...found.values()].filter((f) => f.differences === fewest).map((f) => f.reading);
    }
    return [];
  }

  /**
   * How many of the source's own examples of an entry write `written` as a word (folded alike): a lexicographer's
   * examples show the word in use (-ga's "Chikē gà-àbịa" "Chike will come").
   */
  examplesWriting(entryKey: string, written: string): number {
    const key = fold(written);
    const examples = this.senses.all(entryKey).flatMap((r) => (JSON.parse(r.data) as LexRecord).examples);
    return examples.filter((x) => writtenWords(x.text).some((w) => fold(w) === key)).length;
  }

  /** The meanings of an entry's senses, as an English line is searched for them (english-meaning.ts). */
  meaningsOf(entryKey: string): string[][] {
    let m = this.meanings.get(entryKey);
    if (!m) {
      const senses = this.senses.all(entryKey).flatMap((r) => (JSON.parse(r.data) as LexRecord).senses);
      m = meaningsOf(senses);
      this.meanings.set(entryKey, m);
    }
    return m;
  }
}
