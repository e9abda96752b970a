// Which languages the snapshot serves: those with enough entries that have an English gloss (the data decides).
import type Database from 'better-sqlite3';

import type { LanguageManifest } from './manifest.ts';

export interface LanguageStanding {
  code: string;
  /** Distinct entries (form, part of speech, etymology) with at least one English gloss. */
  glossedEntries: number;
  active: boolean;
}

/** Counted over the staged records, before entries get their identity (only active languages get one). */
export function languageStandings(db: Database.Database, languages: readonly LanguageManifest[], activeAt: number): LanguageStanding[] {
  const counts = new Map(
    (db.prepare('SELECT language, count(DISTINCT key) AS n FROM stage.lex WHERE glossed = 1 GROUP BY language').all() as { language: string; n: number }[]).map(
      (r) => [r.language, r.n],
    ),
  );
  return languages.map((l) => {
    const glossedEntries = counts.get(l.code) ?? 0;
    return { code: l.code, glossedEntries, active: glossedEntries >= activeAt };
  });
}
