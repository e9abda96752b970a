// Per-entry facts the schedule and the stats need, in typed arrays indexed by pop (flat at 1M entries).
import { PARTS_OF_SPEECH } from '../../../services/shared/vocabulary.ts';

/** One entry's facts, as plain values (tests and small pools). */
export interface EntryFacts {
  pop: number;
  id: number;
  language: string;
  partOfSpeech: string;
  isCommon: boolean;
  frequencyRank: number | null;
  glossCount: number;
  exampleCount: number;
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
  private readonly languageIndex = new Map<string, number>();
  readonly languages: string[] = [];
  count = 0;

  /** `size` = number of entries; pops run from 1 to size. */
  constructor(readonly size: number) {
    this.id = new Float64Array(size + 1);
    this.language = new Uint8Array(size + 1);
    this.pos = new Uint8Array(size + 1);
    this.isCommon = new Uint8Array(size + 1);
    this.frequencyRank = new Uint32Array(size + 1);
    this.glossCount = new Uint16Array(size + 1);
    this.exampleCount = new Uint32Array(size + 1);
  }

  static from(list: readonly EntryFacts[]): FactsTable {
    const table = new FactsTable(Math.max(0, ...list.map((f) => f.pop)));
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
    this.id[f.pop] = f.id;
    this.language[f.pop] = lang;
    this.pos[f.pop] = Math.max(0, (PARTS_OF_SPEECH as readonly string[]).indexOf(f.partOfSpeech));
    this.isCommon[f.pop] = f.isCommon ? 1 : 0;
    this.frequencyRank[f.pop] = f.frequencyRank ?? 0;
    this.glossCount[f.pop] = Math.min(CAP_U16, f.glossCount);
    this.exampleCount[f.pop] = f.exampleCount;
    this.count += 1;
  }

  languageOf(pop: number): string {
    return this.languages[this.language[pop]];
  }

  partOfSpeechOf(pop: number): string {
    return PARTS_OF_SPEECH[this.pos[pop]];
  }

  get(pop: number): EntryFacts {
    return {
      pop,
      id: this.id[pop],
      language: this.languageOf(pop),
      partOfSpeech: this.partOfSpeechOf(pop),
      isCommon: this.isCommon[pop] === 1,
      frequencyRank: this.frequencyRank[pop] === 0 ? null : this.frequencyRank[pop],
      glossCount: this.glossCount[pop],
      exampleCount: this.exampleCount[pop],
    };
  }

  /** Pops that hold an entry (all of 1..size once the build has written every entry). */
  *pops(): Generator<number> {
    for (let pop = 1; pop <= this.size; pop++) if (this.id[pop] !== 0) yield pop;
  }
}
