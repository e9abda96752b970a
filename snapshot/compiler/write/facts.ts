// Per-entry facts the schedule and the stats need, in typed arrays indexed by global rank (flat at 1M entries).
import { PARTS_OF_SPEECH } from '../../../services/shared/vocabulary.ts';

/** One entry's facts, as plain values (tests and small pools). */
export interface EntryFacts {
  globalRank: number;
  id: number;
  language: string;
  partOfSpeech: string;
  isCommon: boolean;
  frequencyRank: number | null;
  glossCount: number;
  exampleCount: number;
  pronunciationCount: number;
  /** May be a word of the day (classroom.ts). */
  classroomFit: boolean;
}

const CAP_U16 = 0xffff;

export class FactsTable {
  readonly id: Float64Array;
  readonly language: Uint8Array;
  readonly pos: Uint8Array;
  readonly isCommon: Uint8Array;
  /** 0 = no rank. */
  readonly frequencyRank: Uint32Array;
  readonly glossCount: Uint16Array;
  readonly exampleCount: Uint32Array;
  readonly pronunciationCount: Uint16Array;
  readonly classroomFit: Uint8Array;
  private readonly languageIndex = new Map<string, number>();
  readonly languages: string[] = [];
  count = 0;

  /** `size` = number of entries; global ranks run from 1 to size. */
  constructor(readonly size: number) {
    this.id = new Float64Array(size + 1);
    this.language = new Uint8Array(size + 1);
    this.pos = new Uint8Array(size + 1);
    this.isCommon = new Uint8Array(size + 1);
    this.frequencyRank = new Uint32Array(size + 1);
    this.glossCount = new Uint16Array(size + 1);
    this.exampleCount = new Uint32Array(size + 1);
    this.pronunciationCount = new Uint16Array(size + 1);
    this.classroomFit = new Uint8Array(size + 1);
  }

  static from(list: readonly EntryFacts[]): FactsTable {
    const table = new FactsTable(Math.max(0, ...list.map((f) => f.globalRank)));
    for (const f of list) table.set(f);
    return table;
  }

  set(f: EntryFacts): void {
    let lang = this.languageIndex.get(f.language);
    if (lang === undefined) {
      lang = this.languages.length;
      this.languages.push(f.language);
      this.languageIndex.set(f.language, lang);
    }
    this.id[f.globalRank] = f.id;
    this.language[f.globalRank] = lang;
    this.pos[f.globalRank] = Math.max(0, (PARTS_OF_SPEECH as readonly string[]).indexOf(f.partOfSpeech));
    this.isCommon[f.globalRank] = f.isCommon ? 1 : 0;
    this.frequencyRank[f.globalRank] = f.frequencyRank ?? 0;
    this.glossCount[f.globalRank] = Math.min(CAP_U16, f.glossCount);
    this.exampleCount[f.globalRank] = f.exampleCount;
    this.pronunciationCount[f.globalRank] = Math.min(CAP_U16, f.pronunciationCount);
    this.classroomFit[f.globalRank] = f.classroomFit ? 1 : 0;
    this.count += 1;
  }

  languageOf(globalRank: number): string {
    return this.languages[this.language[globalRank]];
  }

  partOfSpeechOf(globalRank: number): string {
    return PARTS_OF_SPEECH[this.pos[globalRank]];
  }

  get(globalRank: number): EntryFacts {
    return {
      globalRank,
      id: this.id[globalRank],
      language: this.languageOf(globalRank),
      partOfSpeech: this.partOfSpeechOf(globalRank),
      isCommon: this.isCommon[globalRank] === 1,
      frequencyRank: this.frequencyRank[globalRank] === 0 ? null : this.frequencyRank[globalRank],
      glossCount: this.glossCount[globalRank],
      exampleCount: this.exampleCount[globalRank],
      pronunciationCount: this.pronunciationCount[globalRank],
      classroomFit: this.classroomFit[globalRank] === 1,
    };
  }

  /** Global ranks that hold an entry (all of 1..size once the build has written every entry). */
  *globalRanks(): Generator<number> {
    for (let globalRank = 1; globalRank <= this.size; globalRank++) if (this.id[globalRank] !== 0) yield globalRank;
  }
}
