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

export class AlignedText {
  /** Sentence indexes by folded word. */
  private readonly byWord = new Map<string, number[]>();
  private readonly bases: (Set<string> | undefined)[];
  /** Each sentence's words, folded and as written. */
  private readonly folded: string[][] = [];
  private readonly written: string[][] = [];
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
}
