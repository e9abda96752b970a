// Which English words the lexicons use as verbs and which only as nouns, read from their own glosses: the evidence a
// language's rules may weigh a source's part of speech against (Malagasy manasa "wash" is a verb, mananasy
// "pineapple" a noun).
import type Database from 'better-sqlite3';

import type { LexRecord } from './records.ts';

/** A gloss that is one English word, after "to" or an article: what a class can be read from. */
const ONE_WORD = /^(?:(to)\s+|(?:a|an|the)\s+)?([a-z]+)$/;

export class EnglishClasses {
  private readonly verbs = new Set<string>();
  private readonly nouns = new Set<string>();

  /** Read from every staged record of the other languages (a language's own glosses are what is being checked). */
  constructor(db: Database.Database, exceptLanguage: string) {
    const rows = db.prepare<[string], { pos: string; data: string }>('SELECT pos, data FROM stage.lex WHERE language <> ?');
    for (const row of rows.iterate(exceptLanguage)) {
      for (const sense of (JSON.parse(row.data) as LexRecord).senses) {
        for (const part of sense.replace(/\([^)]*\)/g, ' ').toLowerCase().split(/[;,]/)) {
          const m = ONE_WORD.exec(part.trim());
          if (!m) continue;
          if (m[1] || row.pos === 'verb') this.verbs.add(m[2]);
          else if (row.pos === 'noun') this.nouns.add(m[2]);
        }
      }
    }
  }

  /** Whether the lexicons gloss nouns with the word and never a verb. */
  nounOnly(word: string): boolean {
    return this.nouns.has(word) && !this.verbs.has(word);
  }
}
