// buildSnapshot(): the whole build as one function (used by snapshot/compiler/main.ts and in-process by tests).
import { createHash } from 'node:crypto';
import { existsSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import Database from 'better-sqlite3';

import { downloadsDirOf } from '../format/downloads.ts';
import { makePrivateDir } from '../../services/shared/private-files.ts';
import { writeSha256Sidecar } from '../format/file-hash.ts';
import { ANY_FILTER, BODY, META, SNAPSHOT_FORMAT_VERSION } from '../format/format.ts';
import type { MetaKey } from '../format/format.ts';
import { writeKeyFilters } from '../format/stored-filters.ts';
import { languageStandings } from './activation.ts';
import { attachSentences, reportUnmatchedFrequencies } from './attach.ts';
import { attachAlignedSentences } from './examples.ts';
import { resolveInflections } from './inflections.ts';
import { identifyEntries } from './identify.ts';
import { importSources } from './import-sources.ts';
import { inputChecksums, locateCorpora } from './inputs.ts';
import type { CorporaLocation } from './inputs.ts';
import { loadManifests, sourceFiles } from './manifest.ts';
import type { Progress } from './progress.ts';
import { silentProgress } from './progress.ts';
import { ReportBuilder, checkArithmetic } from './report.ts';
import type { BuildReport } from './report.ts';
import { attachPronunciations } from './pronunciations.ts';
import { resolveAlternatives } from './resolve-alternatives.ts';
import { applyReversed } from './reverse.ts';
import { addAttestedStandardSpellings } from './standard-spellings.ts';
import { wordOfTheDayCycle } from './schedule.ts';
import { languageRecords, statsBody, writeCounts, writeLanguages, writeWordOfTheDay } from './write/bodies.ts';
import { writeBrowseAnchors } from './write/browse-anchors.ts';
import { DownloadWriter } from './write/downloads.ts';
import { writeFacets } from './write/facets.ts';
import { writeEntries } from './write/entries.ts';
import { writeOtherForms } from './write/other-forms.ts';
import { FILL_FORMS, SNAPSHOT_INDEXES, SNAPSHOT_TABLES, STAGE_ENTRY_INDEXES, STAGE_LEX_INDEXES, STAGE_TABLES } from '../format/schema.ts';

export interface BuildOptions {
  /** Snapshot file to write (atomically: temp file + rename). */
  out: string;
  /** Corpora directory; undefined = CORPORA_DIR / corpora/raw / ../shared/corpora / sample. */
  corpora?: string;
  corporaEnv?: string;
  /** Explicit manifests (tests); default: from the located corpora. */
  sourcesFile?: string;
  languagesFile?: string;
  /** Worker threads assembling entries (0 = in-process); default by size and cores. */
  workers?: number;
  /** Build day (YYYY-MM-DD, UTC) anchoring the materialised word-of-the-day window; default today. */
  date?: string;
  now?: () => Date;
  progress?: Progress;
}

export class BuildError extends Error {
  override readonly name = 'BuildError';
}

/** Page cache per database file (snapshot, staging) during the build, in KiB; bounds the build's memory. */
const BUILD_CACHE_KIB = 64 * 1024;

export interface BuildResult {
  report: BuildReport;
  location: CorporaLocation;
}

export async function buildSnapshot(options: BuildOptions): Promise<BuildResult> {
  const started = Date.now();
  const progress = options.progress ?? silentProgress;
  const now = (options.now ?? (() => new Date()))();
  const builtAt = now.toISOString();
  const anchorDate = options.date ?? builtAt.slice(0, 10);
  const located = locateCorpora(options.corpora, options.corporaEnv);
  const location: CorporaLocation = {
    ...located,
    sourcesFile: options.sourcesFile ?? located.sourcesFile,
    languagesFile: options.languagesFile ?? located.languagesFile,
  };
  const manifests = loadManifests(location.sourcesFile, location.languagesFile);
  const { sources, languages, activeAtGlossedEntries } = manifests;
  location.sample = location.sample || manifests.sample;
  if (location.sample) progress.log('*** SAMPLE DATA: no raw corpora found; building from corpora/sample/ (not the real dictionary) ***');
  progress.log(`corpora: ${location.dir} (${location.why})`);

  const out = path.resolve(options.out);
  // The default output is under DATA_DIR, which holds metering.db: created 0700 (private-files.ts).
  makePrivateDir(path.dirname(out));
  const tmp = `${out}.tmp-${process.pid}`;
  const stagePath = `${tmp}.stage`;
  const downloadsTmp = downloadsDirOf(tmp);
  for (const f of [tmp, stagePath, downloadsTmp]) rmSync(f, { force: true, recursive: true });

  const db = new Database(tmp);
  let downloads: DownloadWriter | undefined;
  try {
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.pragma(`cache_size = -${BUILD_CACHE_KIB}`);
    db.pragma('temp_store = FILE');
    db.exec(SNAPSHOT_TABLES);
    db.prepare('ATTACH DATABASE ? AS stage').run(stagePath);
    db.pragma(`stage.cache_size = -${BUILD_CACHE_KIB}`);
    db.pragma('stage.journal_mode = OFF');
    db.pragma('stage.synchronous = OFF');
    db.exec(STAGE_TABLES);

    const report = new ReportBuilder();
    const imported = importSources(db, location.dir, sources, report, progress);
    const checksums = inputChecksums(location, sourceFiles(sources));
    db.exec(STAGE_LEX_INDEXES);
    resolveAlternatives(db, report, progress);
    applyReversed(db, report);
    const standings = languageStandings(db, languages, activeAtGlossedEntries);
    const served = new Set(standings.filter((s) => s.active).map((s) => s.code));
    const total = identifyEntries(db, imported.frequency, served, report, progress);
    db.exec(STAGE_ENTRY_INDEXES);
    reportUnmatchedFrequencies(db, imported.frequency, report);
    resolveInflections(db, report, progress);
    const pronunciationCoverage = attachPronunciations(db, sources, report);
    addAttestedStandardSpellings(db, imported, sources, progress);
    const examples = attachSentences(db, imported.sentences, report);
    for (const [key, list] of attachAlignedSentences(db, imported.aligned, report)) examples.set(key, [...(examples.get(key) ?? []), ...list]);

    const hash = createHash('sha256').update(`format ${SNAPSHOT_FORMAT_VERSION}\n`);
    // The downloads take each body as it is written; they stay out of the content hash (docs/downloads.md).
    downloads = new DownloadWriter(downloadsTmp, sources, new Map(languages.map((l) => [l.code, l.name])));
    const facts = await writeEntries({
      db,
      data: {
        stagePath,
        languageNames: languages.map((l) => [l.code, l.name]),
        sources: sources.map((s) => [s.id, { source: { id: s.id, name: s.name, url: s.url, attribution: s.attribution }, licence: s.licence }]),
        ranks: imported.frequency.rankList(),
        treebankExamples: [...examples],
        keysWithVariants: (db.prepare('SELECT DISTINCT target_key AS k FROM stage.variant').all() as { k: string }[]).map((r) => r.k),
      },
      hash,
      progress,
      total,
      workers: options.workers,
      downloads,
    });

    progress.phase('indexes and bodies');
    db.exec('INSERT INTO temp.other_form_rows (key, pop) SELECT i.key, e.pop FROM stage.entry_inflection i JOIN stage.entry e ON e.key = i.entry_key');
    const otherForms = writeOtherForms(db);
    progress.log(`other forms: ${otherForms.keys} keys in ${(otherForms.bytes / 1e6).toFixed(1)} MB`);
    db.exec(FILL_FORMS);
    db.exec(SNAPSHOT_INDEXES);
    const languageList = languageRecords(languages, served, facts);
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
    const contentHash = hash.digest('hex');
    writeWordOfTheDay(db, cycles, anchorDate);

    const version = `v${SNAPSHOT_FORMAT_VERSION}-${contentHash.slice(0, 12)}`;
    const importedBySource = new Map(report.sources().map((r) => [r.source, r.imported]));
    const downloadIndex = await downloads.finish(version, importedBySource);
    const usedSources = report.sources().filter((s) => s.imported > 0).length;
    const stats = statsBody({
      facts,
      languages: languageList,
      sourceCount: usedSources,
      snapshot: { version, formatVersion: SNAPSHOT_FORMAT_VERSION, contentHash, builtAt, sample: location.sample },
    });
    db.prepare('INSERT INTO bodies (name, body) VALUES (?, ?)').run(BODY.stats, JSON.stringify(stats));
    // Every corpus with its licence and attribution, for the website's /about page (Snapshot.sources()).
    const sourcesBody = sources.map((s) => ({
      id: s.id,
      name: s.name,
      language: s.language,
      role: s.role,
      url: s.url,
      attribution: s.attribution,
      licence: s.licence,
      records: importedBySource.get(s.id) ?? 0,
      ...(s.headwordSpelling ? { headwordSpelling: s.headwordSpelling } : {}),
    }));
    db.prepare('INSERT INTO bodies (name, body) VALUES (?, ?)').run(BODY.sources, JSON.stringify(sourcesBody));
    const meta: Record<MetaKey, string> = {
      formatVersion: String(SNAPSHOT_FORMAT_VERSION),
      contentHash,
      builtAt,
      version,
      sample: String(location.sample),
      anchorDate,
      entries: String(facts.count),
      inputs: JSON.stringify(checksums),
      inputsChecksum: checksums.combined,
    };
    const insertMeta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
    for (const [k, v] of Object.entries(meta) as [MetaKey, string][]) insertMeta.run(META[k], v);

    const problems = checkArithmetic(report.sources());
    if (problems.length > 0) throw new BuildError(`report arithmetic broken: ${problems.join('; ')}`);

    db.exec("INSERT INTO head_fts (head_fts) VALUES ('optimize'); INSERT INTO gloss_fts (gloss_fts) VALUES ('optimize');");
    progress.log(`key filters: ${writeKeyFilters(db)}`);
    db.exec('DETACH DATABASE stage');
    db.exec('ANALYZE');
    // better-sqlite3's SQLite is built with STAT4: with sample rows present, every statement whose WHERE
    // binds an indexed column is re-prepared (parsed and planned again) whenever a bound value changes,
    // i.e. on nearly every search step. The reader's statements are all plain key lookups or rank-ordered
    // ranges that sqlite_stat1 plans as well, so the samples would only make every search parse and plan its
    // statements again (the bench's bare loop measures a search).
    db.exec('DROP TABLE sqlite_stat4');
    progress.end();
    db.close();
    // The downloads first: once the snapshot is in place, its downloads are too. A worker that opens the old
    // snapshot in between finds downloads of another version and serves none (snapshot/reader/downloads.ts).
    const downloadsDir = downloadsDirOf(out);
    rmSync(downloadsDir, { recursive: true, force: true });
    renameSync(downloadsTmp, downloadsDir);
    // Workers check the file against it before they map it (snapshot/reader/check.ts).
    writeSha256Sidecar(tmp, out);
    renameSync(tmp, out);

    const entriesByLanguage: Record<string, number> = {};
    for (const l of languageList) if (l.status === 'active') entriesByLanguage[l.code] = l.wordCount;
    const buildReport: BuildReport = {
      sample: location.sample,
      corporaDir: location.dir,
      out,
      contentHash,
      builtAt,
      durationMs: Date.now() - started,
      sizeBytes: statSync(out).size,
      entries: facts.count,
      entriesByLanguage,
      languages: standings.map((s) => {
        const mine = report.sources().filter((r) => r.language === s.code);
        const sum = (field: 'read' | 'imported' | 'merged' | 'rejected'): number => mine.reduce((n, r) => n + r[field], 0);
        return {
          code: s.code,
          status: s.active ? ('active' as const) : ('preparing' as const),
          glossedEntries: s.glossedEntries,
          entries: entriesByLanguage[s.code] ?? 0,
          withPronunciation: pronunciationCoverage.get(s.code)?.withPronunciation ?? 0,
          sources: mine.map((r) => r.source),
          read: sum('read'),
          imported: sum('imported'),
          merged: sum('merged'),
          rejected: sum('rejected'),
        };
      }),
      sources: report.sources(),
      downloads: {
        dir: downloadsDir,
        files: downloadIndex.files.length,
        bytes: downloadIndex.files.reduce((n, f) => n + f.bytes, 0),
      },
    };
    writeFileSync(`${out}.report.json`, `${JSON.stringify(buildReport, null, 2)}\n`);
    return { report: buildReport, location };
  } finally {
    downloads?.abort();
    if (db.open) db.close();
    for (const f of [tmp, stagePath, downloadsTmp]) if (existsSync(f)) rmSync(f, { force: true, recursive: true });
  }
}
