// The snapshot's tables besides the entries' own rows, written once every entry is: the search tables' last
// parts, the per-language bodies and counts, the word-of-the-day schedule, and the meta rows.
import type { Hash } from 'node:crypto';

import type Database from 'better-sqlite3';

import type { Language } from '../../../services/shared/schemas.ts';
import { ANY_FILTER, BODY, META, SNAPSHOT_FORMAT_VERSION } from '../../format/format.ts';
import type { MetaKey } from '../../format/format.ts';
import { SNAPSHOT_INDEXES } from '../../format/schema.ts';
import type { InputChecksums } from '../inputs.ts';
import type { LanguageManifest, SourceManifest } from '../manifest.ts';
import type { Progress } from '../progress.ts';
import { wordOfTheDayCycle } from '../schedule.ts';
import { FILL_FORMS } from '../stage-schema.ts';
import { languageRecords, statsBody, writeCounts, writeLanguages, writeWordOfTheDay } from './bodies.ts';
import { writeBrowseAnchors } from './browse-anchors.ts';
import { writeFacets } from './facets.ts';
import type { FactsTable } from './facts.ts';
import { writeOtherForms } from './other-forms.ts';

export interface IndexesAndBodiesInput {
  facts: FactsTable;
  languages: readonly LanguageManifest[];
  /** The active languages. */
  served: ReadonlySet<string>;
  anchorDate: string;
  /** The content hash, which takes the word-of-the-day cycles (as ids) and the languages here. */
  hash: Hash;
  progress: Progress;
}

/** Other forms, the forms table and the indexes, languages, counts, browse anchors, facets, the word of the day. */
export function writeIndexesAndBodies(db: Database.Database, input: IndexesAndBodiesInput): Language[] {
  const { facts, hash, progress } = input;
  progress.phase('indexes and bodies');
  db.exec('INSERT INTO temp.other_form_rows (key, global_rank) SELECT i.key, e.global_rank FROM stage.entry_inflection i JOIN stage.entry e ON e.key = i.entry_key');
  const otherForms = writeOtherForms(db);
  progress.log(`other forms: ${otherForms.keys} keys in ${(otherForms.bytes / 1e6).toFixed(1)} MB`);
  db.exec(FILL_FORMS);
  db.exec(SNAPSHOT_INDEXES);
  const languageList = languageRecords(input.languages, input.served, facts);
  writeLanguages(db, languageList);
  writeCounts(db, facts);
  progress.log(`browse anchors: ${writeBrowseAnchors(db)}`);
  writeFacets(db, facts);
  const active = languageList.filter((l) => l.status === 'active').map((l) => l.code);
  const cycles = new Map<string, number[]>();
  for (const code of active) cycles.set(code, wordOfTheDayCycle(facts, [code]));
  cycles.set(ANY_FILTER, wordOfTheDayCycle(facts, active));
  for (const [lang, cycle] of cycles) hash.update(`wotd ${lang} ${cycle.map((p) => facts.id[p]).join(',')}\n`);
  hash.update(`languages ${JSON.stringify(languageList)}\n`);
  writeWordOfTheDay(db, cycles, input.anchorDate);
  return languageList;
}

export interface MetaInput {
  facts: FactsTable;
  languages: readonly Language[];
  sources: readonly SourceManifest[];
  /** Records each source gave the snapshot (the report's imported). */
  importedBySource: ReadonlyMap<string, number>;
  contentHash: string;
  version: string;
  builtAt: string;
  anchorDate: string;
  sample: boolean;
  checksums: InputChecksums;
}

/** The stats and sources bodies, and every meta row. */
export function writeMetaAndBodies(db: Database.Database, input: MetaInput): void {
  const { facts, contentHash, version, builtAt, sample, checksums } = input;
  const insertBody = db.prepare('INSERT INTO bodies (name, body) VALUES (?, ?)');
  const stats = statsBody({
    facts,
    languages: input.languages,
    sourceCount: [...input.importedBySource.values()].filter((n) => n > 0).length,
    snapshot: { version, formatVersion: SNAPSHOT_FORMAT_VERSION, contentHash, builtAt, sample },
  });
  insertBody.run(BODY.stats, JSON.stringify(stats));
  // Every corpus with its licence and attribution, for the website's /about page (Snapshot.sources()).
  const sourcesBody = input.sources.map((s) => ({
    id: s.id,
    name: s.name,
    language: s.language,
    role: s.role,
    url: s.url,
    attribution: s.attribution,
    licence: s.licence,
    records: input.importedBySource.get(s.id) ?? 0,
    ...(s.headwordSpelling ? { headwordSpelling: s.headwordSpelling } : {}),
  }));
  insertBody.run(BODY.sources, JSON.stringify(sourcesBody));
  const meta: Record<MetaKey, string> = {
    formatVersion: String(SNAPSHOT_FORMAT_VERSION),
    contentHash,
    builtAt,
    version,
    sample: String(sample),
    anchorDate: input.anchorDate,
    entries: String(facts.count),
    commonEntries: String(facts.isCommon.reduce((n: number, c: number) => n + c, 0)),
    inputs: JSON.stringify(checksums),
    inputsChecksum: checksums.combined,
  };
  const insertMeta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
  for (const [k, v] of Object.entries(meta) as [MetaKey, string][]) insertMeta.run(META[k], v);
}
