// The small precomputed bodies: GET /languages, GET /stats, word-of-the-day bodies, counts and meta.
import type Database from 'better-sqlite3';

import { ANY_FILTER, BODY } from '../../format/format.ts';
import { cyclePosition, dateOfDay, dayNumber, wordOfTheDayBody } from '../../format/word-of-the-day.ts';
import type { Language, Stats } from '../../../services/shared/schemas.ts';
import { LanguagesSchema, StatsSchema, WordOfTheDaySchema } from '../../../services/shared/schemas.ts';
import type { LanguageManifest } from '../manifest.ts';
import { WOTD_WINDOW_DAYS } from '../schedule.ts';
import type { FactsTable } from './facts.ts';

/** Every language of the manifest, active when the build serves it (snapshot/compiler/activation.ts), with its count. */
export function languageRecords(languages: readonly LanguageManifest[], served: ReadonlySet<string>, facts: FactsTable): Language[] {
  const counts = new Map<string, number>();
  for (const globalRank of facts.globalRanks()) counts.set(facts.languageOf(globalRank), (counts.get(facts.languageOf(globalRank)) ?? 0) + 1);
  // A language whose corpus is being prepared reports zero (spec): its entries are not in the snapshot.
  return languages.map((l) => {
    const status = served.has(l.code) ? ('active' as const) : ('preparing' as const);
    return { code: l.code, slug: l.slug, name: l.name, nativeName: l.nativeName, status, wordCount: status === 'active' ? (counts.get(l.code) ?? 0) : 0 };
  });
}

export function writeLanguages(db: Database.Database, records: readonly Language[]): void {
  const body = LanguagesSchema.parse({ data: records });
  const insert = db.prepare('INSERT INTO languages (code, slug, status, record) VALUES (?, ?, ?, ?)');
  for (const l of records) insert.run(l.code, l.slug, l.status, JSON.stringify(l));
  db.prepare('INSERT INTO bodies (name, body) VALUES (?, ?)').run(BODY.languages, JSON.stringify(body));
}

export function writeCounts(db: Database.Database, facts: FactsTable): void {
  const counts = new Map<string, number>();
  const add = (key: string): void => {
    counts.set(key, (counts.get(key) ?? 0) + 1);
  };
  for (const globalRank of facts.globalRanks()) {
    const language = facts.languageOf(globalRank);
    const pos = facts.partOfSpeechOf(globalRank);
    add(`${ANY_FILTER}\u0001${ANY_FILTER}`);
    add(`${language}\u0001${ANY_FILTER}`);
    add(`${ANY_FILTER}\u0001${pos}`);
    add(`${language}\u0001${pos}`);
  }
  const insert = db.prepare('INSERT INTO counts (language, pos, n) VALUES (?, ?, ?)');
  for (const [key, n] of counts) {
    const [language, pos] = key.split('\u0001');
    insert.run(language, pos, n);
  }
}

export interface StatsInput {
  facts: FactsTable;
  languages: readonly Language[];
  sourceCount: number;
  snapshot: Stats['snapshot'];
}

export function statsBody(input: StatsInput): Stats {
  const byLanguage: Record<string, number> = {};
  const byPos: Record<string, Record<string, number>> = {};
  let examples = 0;
  for (const globalRank of input.facts.globalRanks()) {
    const language = input.facts.languageOf(globalRank);
    const pos = input.facts.partOfSpeechOf(globalRank);
    byLanguage[language] = (byLanguage[language] ?? 0) + 1;
    const table = (byPos[language] ??= {});
    table[pos] = (table[pos] ?? 0) + 1;
    examples += input.facts.exampleCount[globalRank];
  }
  return StatsSchema.parse({
    totals: {
      entries: input.facts.count,
      examples,
      sources: input.sourceCount,
      languages: input.languages.length,
      activeLanguages: input.languages.filter((l) => l.status === 'active').length,
    },
    entriesByLanguage: byLanguage,
    entriesByPartOfSpeech: byPos,
    snapshot: input.snapshot,
  });
}

/** Writes the cycles and the ready-made bodies for WOTD_WINDOW_DAYS days from the anchor date. */
export function writeWordOfTheDay(db: Database.Database, cycles: ReadonlyMap<string, readonly number[]>, anchorDate: string): number {
  const insertCycle = db.prepare('INSERT INTO wotd_cycle (language, position, global_rank) VALUES (?, ?, ?)');
  const insertBody = db.prepare('INSERT INTO wotd (language, date, body) VALUES (?, ?, ?)');
  const entry = db.prepare<[number], { body: string; language: string }>('SELECT j.body AS body, e.language AS language FROM entries e JOIN entry_json j ON j.global_rank = e.global_rank WHERE e.global_rank = ?');
  let written = 0;
  for (const [language, cycle] of cycles) {
    cycle.forEach((globalRank, position) => insertCycle.run(language, position, globalRank));
    if (cycle.length === 0) continue;
    const first = dayNumber(anchorDate);
    for (let day = first; day < first + WOTD_WINDOW_DAYS; day++) {
      const date = dateOfDay(day);
      const row = entry.get(cycle[cyclePosition(date, cycle.length)]);
      if (!row) continue;
      const body = wordOfTheDayBody(date, row.language, row.body);
      if (written === 0) WordOfTheDaySchema.parse(JSON.parse(body));
      insertBody.run(language, date, body);
      written += 1;
    }
  }
  return written;
}
