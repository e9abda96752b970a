// Which homograph a text's word is, told by the lexicon's own compounds: where the text holds a compound of the
// lexicon (onye isī "leader", -dị ichè "be different") with its meaning, the word stands there as the compound writes
// it, tones and all. The evidence a frequency line falls back on when the English of the word's sentences tells no
// reading apart (snapshot/compiler/frequency.ts).
import type Database from 'better-sqlite3';

import { fold } from '../format/text.ts';
import type { AlignedText } from './aligned-text.ts';
import type { Reading } from './readings.ts';

interface CompoundWord {
  /** The compound's entry key and folded form (its words, space-separated). */
  key: string;
  folded: string;
  /** The word as the compound writes it (tone-marked). */
  written: string;
}

/**
 * A headword's word as a comparable string: NFC, lower case. A verb root keeps its hyphen: the kà of -dị kà "look
 * like" is the particle kà, not the root -kà "guess".
 */
const asWord = (form: string): string => form.normalize('NFC').toLowerCase();

export class CompoundEvidence {
  private readonly byWord = new Map<string, CompoundWord[]>();

  /** The compounds of a language's lexicon that hold one of the `wanted` folded words. */
  constructor(db: Database.Database, language: string, wanted: ReadonlySet<string>) {
    const rows = db.prepare<[string], { key: string; exact_form: string; folded: string }>(
      "SELECT key, exact_form, folded FROM stage.entry WHERE language = ? AND folded LIKE '% %'",
    );
    for (const row of rows.iterate(language)) {
      const written = row.exact_form.trim().split(/\s+/);
      const folded = row.folded.split(' ');
      // A compound whose words fold into another number of words (an apostrophe, a hyphen inside) is not compared.
      if (written.length !== folded.length) continue;
      folded.forEach((word, i) => {
        if (!wanted.has(word)) return;
        const list = this.byWord.get(word) ?? [];
        list.push({ key: row.key, folded: row.folded, written: written[i] });
        this.byWord.set(word, list);
      });
    }
  }

  /**
   * The readings of `form` that compounds the text holds name, each with the lines whose English holds the
   * compound's meaning: only compounds the text shows (AlignedText.shown), since the text may use the same words
   * for something else (Standard gba mbọ "strive" is not the lexicon's -gba mbọ "pare nails").
   */
  named(form: string, readings: readonly Reading[], text: AlignedText, meaningsOf: (key: string) => string[][]): Map<string, number> {
    const named = new Map<string, number>();
    for (const { reading, compound, sentences } of this.held(form, readings, text)) {
      const { hits, shown } = text.shown(sentences, meaningsOf(compound.key));
      if (shown) named.set(reading.entryKey, (named.get(reading.entryKey) ?? 0) + hits);
    }
    return named;
  }

  /**
   * The readings of `form` that compounds the text holds name, each with the sentences holding them, whatever their
   * English says: the weakest evidence, for when nothing else tells (the text's oke mkpa "very important" is the
   * lexicon's oke mkpà "great need", with oke "big size", though no English line says "need").
   */
  held(form: string, readings: readonly Reading[], text: AlignedText): { reading: Reading; compound: CompoundWord; sentences: readonly number[] }[] {
    const out: { reading: Reading; compound: CompoundWord; sentences: readonly number[] }[] = [];
    for (const compound of this.byWord.get(fold(form)) ?? []) {
      const reading = readings.find((r) => r.via === 'headword' && asWord(r.form) === asWord(compound.written));
      if (!reading) continue;
      const sentences = text.sentencesWithPhrase(compound.folded);
      if (sentences.length > 0) out.push({ reading, compound, sentences });
    }
    return out;
  }

  /** `held` as sentences per reading. */
  heldLines(form: string, readings: readonly Reading[], text: AlignedText): Map<string, number> {
    const lines = new Map<string, number>();
    for (const { reading, sentences } of this.held(form, readings, text)) lines.set(reading.entryKey, (lines.get(reading.entryKey) ?? 0) + sentences.length);
    return lines;
  }
}
