// A language's aligned sentences (NTREX-128: each line with its English source) indexed by word, so that a written
// word's readings can be weighed by what the English says: the evidence for examples, frequency and spellings.
import { fold } from '../format/text.ts';
import { englishBases, holdsMeaning } from './english-meaning.ts';
import type { AlignedSentenceRecord } from './records.ts';

/** Words of a sentence: letters and marks, with apostrophes inside (Hausa 'yan, Igbo n'ebe). */
const WORD = /[\p{L}\p{M}]+(?:['’][\p{L}\p{M}]+)*/gu;

/** The words of a text as written (NFC, lower case, typographic apostrophes as '). */
export function writtenWords(text: string): string[] {
  return (text.match(WORD) ?? []).map((w) => w.normalize('NFC').toLowerCase().replace(/’/g, "'"));
}

/** How many times chance a word's English lines must hold a reading's meaning for the text to show the reading. */
export const MIN_LIFT = 2;
/**
 * English lines that must hold it: two, and at least MIN_EVIDENCE_SHARE of the word's sentences (a word in 500
 * sentences is not shown to mean "intent" by the two whose English says "intent"); one for a word the text uses at
 * most RARE_WORD_SENTENCES times.
 */
export const MIN_EVIDENCE = 2;
export const MIN_EVIDENCE_SHARE = 0.05;
export const RARE_WORD_SENTENCES = 3;
/** A meaning at most this share of the text's English lines hold: specific enough for one line to show it. */
export const RARE_MEANING_RATE = 0.05;

/** What the text shows of one reading of a word (AlignedText.shown). */
export interface Shown {
  /** Lines of the word's sentences whose English holds the reading's meaning, and how many would by chance. */
  hits: number;
  expected: number;
  /** Whether that is enough to say the text uses the word so (MIN_EVIDENCE, MIN_LIFT). */
  shown: boolean;
}

export class AlignedText {
  /** Sentence indexes by folded word. */
  private readonly byWord = new Map<string, number[]>();
  private readonly bases: (Set<string> | undefined)[];
  /** Each sentence's words, folded and as written. */
  private readonly folded: string[][] = [];
  private readonly written: string[][] = [];
  /** Lines of the whole text holding a set of meanings, by the meanings (see association). */
  private readonly meaningLines = new Map<string, number>();
  /** Written forms of each folded word, with how often each is written so. */
  private readonly spellings = new Map<string, Map<string, number>>();

  constructor(readonly sentences: readonly AlignedSentenceRecord[]) {
    this.bases = new Array<Set<string> | undefined>(sentences.length);
    sentences.forEach((s, i) => {
      const words = writtenWords(s.text);
      this.written.push(words);
      this.folded.push(words.map((w) => fold(w)));
      for (const word of words) {
        const key = fold(word);
        const list = this.byWord.get(key) ?? [];
        if (list[list.length - 1] !== i) list.push(i);
        this.byWord.set(key, list);
        const written = this.spellings.get(key) ?? new Map<string, number>();
        written.set(word, (written.get(word) ?? 0) + 1);
        this.spellings.set(key, written);
      }
    });
  }

  /** Every folded word of the text. */
  words(): IterableIterator<string> {
    return this.byWord.keys();
  }

  /** The sentences holding a word that folds to `key`. */
  sentencesWith(key: string): readonly number[] {
    return this.byWord.get(key) ?? [];
  }

  /**
   * The sentences holding the word written as `written` (case aside); those holding a word that folds like it when
   * the text never writes it so. Igbo ọkụ "fire" and oku "call" fold alike, and the text tells them apart.
   */
  sentencesWritten(written: string): readonly number[] {
    const key = fold(written);
    const form = written.normalize('NFC').toLowerCase().replace(/’/g, "'");
    const all = this.sentencesWith(key);
    const exact = all.filter((i) => this.written[i].includes(form));
    return exact.length > 0 ? exact : all;
  }

  /** The ways the text writes a folded word (ọkụ "fire" and oku "call" for oku). */
  spellingsOf(key: string): string[] {
    return [...(this.spellings.get(key)?.keys() ?? [])].sort();
  }

  /** How the text writes a folded word most often (ụlọ for ulo), or undefined when it does not hold it. */
  commonSpelling(key: string): string | undefined {
    const written = this.spellings.get(key);
    if (!written) return undefined;
    return [...written].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0][0];
  }

  /** The sentences holding the folded words of `phrase` (space-separated) one after another. */
  sentencesWithPhrase(phrase: string): number[] {
    const words = phrase.split(' ');
    return this.sentencesWith(words[0]).filter((i) => this.phraseAt(i, words) >= 0);
  }

  /** How the first sentence holding the phrase writes it. */
  phraseSpelling(phrase: string): string | undefined {
    const words = phrase.split(' ');
    for (const i of this.sentencesWith(words[0])) {
      const at = this.phraseAt(i, words);
      if (at >= 0) return this.written[i].slice(at, at + words.length).join(' ');
    }
    return undefined;
  }

  private phraseAt(i: number, words: readonly string[]): number {
    const folded = this.folded[i];
    for (let at = 0; at + words.length <= folded.length; at++) if (words.every((w, j) => folded[at + j] === w)) return at;
    return -1;
  }

  /** The English words of sentence i, each with the base forms it may stand for. */
  englishOf(i: number): Set<string> {
    let bases = this.bases[i];
    if (!bases) {
      bases = englishBases(this.sentences[i].translation);
      this.bases[i] = bases;
    }
    return bases;
  }

  /** How many of `sentences` have an English line that holds one of the meanings. */
  evidence(sentences: readonly number[], meanings: readonly (readonly string[])[]): number {
    if (meanings.length === 0) return 0;
    let n = 0;
    for (const i of sentences) if (holdsMeaning(this.englishOf(i), meanings)) n += 1;
    return n;
  }

  /** Whether the text shows a word (its sentences) used with these meanings: see MIN_EVIDENCE and MIN_LIFT. */
  shown(sentences: readonly number[], meanings: readonly (readonly string[])[]): Shown {
    const { hits, expected } = this.association(sentences, meanings);
    // A rare word's one line shows a specific meaning (ụsụ "bat"), not one most English lines hold ("our", "go").
    const specific = sentences.length > 0 && expected / sentences.length < RARE_MEANING_RATE;
    const enough = (hits >= MIN_EVIDENCE && hits >= MIN_EVIDENCE_SHARE * sentences.length) || (hits >= 1 && sentences.length <= RARE_WORD_SENTENCES && specific);
    return { hits, expected, shown: enough && hits >= MIN_LIFT * expected };
  }

  /**
   * How strongly the English of `sentences` holds the meanings beyond chance: the lines that hold one, and how
   * many would by chance (the share of all the text's lines that hold one, times their number). News English says
   * "year" and "people" everywhere; a reading is shown by its meaning where the word is, not by a common word.
   */
  association(sentences: readonly number[], meanings: readonly (readonly string[])[]): { hits: number; expected: number } {
    if (meanings.length === 0 || this.sentences.length === 0) return { hits: 0, expected: 0 };
    const key = meanings.map((m) => m.join(' ')).join('|');
    let all = this.meaningLines.get(key);
    if (all === undefined) {
      all = 0;
      for (let i = 0; i < this.sentences.length; i++) if (holdsMeaning(this.englishOf(i), meanings)) all += 1;
      this.meaningLines.set(key, all);
    }
    return { hits: this.evidence(sentences, meanings), expected: (all / this.sentences.length) * sentences.length };
  }
}
