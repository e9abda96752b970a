// buildSnapshot(): the build's steps in order (used by snapshot/compiler/main.ts and in-process by tests).
import { createHash } from 'node:crypto';
import { statSync, writeFileSync } from 'node:fs';

import type Database from 'better-sqlite3';

import { SNAPSHOT_FORMAT_VERSION } from '../format/format.ts';
import { languageStandings } from './activation.ts';
import type { LanguageStanding } from './activation.ts';
import { AlignedText } from './aligned-text.ts';
import { attachSentences } from './attach.ts';
import { addClassForms } from './class-forms.ts';
import { buildFiles, finishSnapshotFile, openBuildDatabase, removeTemporaryFiles } from './build-files.ts';
import type { BuildFiles } from './build-files.ts';
import { attachAlignedSentences } from './examples.ts';
import { followCrossReferences } from './cross-references.ts';
import { creditFrequencies } from './frequency.ts';
import { identifyEntries, rankGlobally } from './identify.ts';
import { importSources } from './import-sources.ts';
import type { Imported } from './importers/staging.ts';
import { resolveInflections } from './inflections.ts';
import { inputChecksums, locateCorpora } from './inputs.ts';
import type { CorporaLocation, InputChecksums } from './inputs.ts';
import { loadManifests, sourceFiles } from './manifest.ts';
import type { Manifests } from './manifest.ts';
import type { Progress } from './progress.ts';
import { silentProgress } from './progress.ts';
import { attachPronunciations } from './pronunciations.ts';
import type { PronunciationCoverage } from './pronunciations.ts';
import type { ExampleRecord } from './records.ts';
import { ReportBuilder, checkArithmetic, languageReports } from './report.ts';
import type { BuildReport } from './report.ts';
import { resolveAlternatives } from './resolve-alternatives.ts';
import { retagPartsOfSpeech } from './retag.ts';
import { STAGE_ENTRY_INDEXES, STAGE_LEX_INDEXES } from './stage-schema.ts';
import { applyReversed } from './reverse.ts';
import { addAttestedStandardSpellings } from './standard-spellings.ts';
import { DownloadWriter } from './write/downloads.ts';
import { writeEntries } from './write/entries.ts';
import type { FactsTable } from './write/facts.ts';
import type { EntryContextData } from './write/entry-rows.ts';
import { writeIndexesAndBodies, writeMetaAndBodies } from './write/tables.ts';

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

export interface BuildResult {
  report: BuildReport;
  location: CorporaLocation;
}

export async function buildSnapshot(options: BuildOptions): Promise<BuildResult> {
  const started = Date.now();
  const progress = options.progress ?? silentProgress;
  const builtAt = (options.now ?? (() => new Date()))().toISOString();
  const anchorDate = options.date ?? builtAt.slice(0, 10);
  const { location, manifests } = loadInputs(options, progress);
  const { sources, languages } = manifests;
  const files = buildFiles(options.out);
  const db = openBuildDatabase(files);
  let downloads: DownloadWriter | undefined;
  try {
    const report = new ReportBuilder();
    const staged = stageEntries(db, location, manifests, report, progress);
    const hash = createHash('sha256').update(`format ${SNAPSHOT_FORMAT_VERSION}\n`);
    // The downloads take each body as it is written; they stay out of the content hash (docs/downloads.md).
    downloads = new DownloadWriter(files.downloadsTmp, sources, new Map(languages.map((l) => [l.code, l.name])));
    const data = entryContext(db, files, manifests, staged);
    const facts = await writeEntries({ db, data, hash, progress, total: staged.total, workers: options.workers, downloads });
    const languageList = writeIndexesAndBodies(db, { facts, languages, served: staged.served, anchorDate, hash, progress });
    const contentHash = hash.digest('hex');
    const version = `v${SNAPSHOT_FORMAT_VERSION}-${contentHash.slice(0, 12)}`;
    const importedBySource = new Map(report.sources().map((r) => [r.source, r.imported]));
    const downloadIndex = await downloads.finish(version, importedBySource);
    const { sample } = location;
    writeMetaAndBodies(db, { facts, languages: languageList, sources, importedBySource, contentHash, version, builtAt, anchorDate, sample, checksums: staged.checksums });
    const problems = checkArithmetic(report.sources());
    if (problems.length > 0) throw new BuildError(`report arithmetic broken: ${problems.join('; ')}`);
    const downloadsDir = finishSnapshotFile(db, files, progress);

    const entriesByLanguage: Record<string, number> = {};
    for (const l of languageList) if (l.status === 'active') entriesByLanguage[l.code] = l.wordCount;
    const buildReport: BuildReport = {
      sample,
      corporaDir: location.dir,
      out: files.out,
      contentHash,
      builtAt,
      durationMs: Date.now() - started,
      sizeBytes: statSync(files.out).size,
      entries: facts.count,
      entriesByLanguage,
      languages: languageReports(staged.standings, report.sources(), {
        entries: (code) => entriesByLanguage[code] ?? 0,
        withPronunciation: (code) => staged.pronunciationCoverage.get(code)?.withPronunciation ?? 0,
        emptyGlosses: (code) => emptyGlosses(facts, code),
        attachments: (code) => report.attachments(code),
      }),
      sources: report.sources(),
      downloads: { dir: downloadsDir, files: downloadIndex.files.length, bytes: downloadIndex.files.reduce((n, f) => n + f.bytes, 0) },
    };
    writeFileSync(`${files.out}.report.json`, `${JSON.stringify(buildReport, null, 2)}\n`);
    return { report: buildReport, location };
  } finally {
    downloads?.abort();
    if (db.open) db.close();
    removeTemporaryFiles(files);
  }
}

/** The corpora and the manifests that describe them (options may name other manifests: tests do). */
function loadInputs(options: BuildOptions, progress: Progress): { location: CorporaLocation; manifests: Manifests } {
  const located = locateCorpora(options.corpora, options.corporaEnv);
  const location: CorporaLocation = {
    ...located,
    sourcesFile: options.sourcesFile ?? located.sourcesFile,
    languagesFile: options.languagesFile ?? located.languagesFile,
  };
  const manifests = loadManifests(location.sourcesFile, location.languagesFile);
  location.sample = location.sample || manifests.sample;
  if (location.sample) progress.log('*** SAMPLE DATA: no raw corpora found; building from corpora/sample/ (not the real dictionary) ***');
  progress.log(`corpora: ${location.dir} (${location.why})`);
  return { location, manifests };
}

/** What the staging steps leave for writing the entries and the report. */
interface Staged {
  imported: Imported;
  checksums: InputChecksums;
  standings: LanguageStanding[];
  served: Set<string>;
  /** Entries to write. */
  total: number;
  pronunciationCoverage: Map<string, PronunciationCoverage>;
  /** Examples by entry key: treebank sentences, then NTREX-128 lines. */
  examples: Map<string, ExampleRecord[]>;
  /** Frequency rank by entry key (frequency.ts). */
  frequencyRanks: Map<string, number>;
}

/**
 * The sources imported into the staging tables, alternative spellings and reversed pairs resolved, the active
 * languages decided, their entries identified and ranked, and what attaches to entries attached: inflected forms,
 * pronunciations, standard spellings, example sentences.
 */
function stageEntries(db: Database.Database, location: CorporaLocation, manifests: Manifests, report: ReportBuilder, progress: Progress): Staged {
  const { sources, languages, activeAtGlossedEntries } = manifests;
  const imported = importSources(db, location.dir, sources, report, progress);
  const checksums = inputChecksums(location, sourceFiles(sources));
  retagPartsOfSpeech(db, report);
  addClassForms(db, imported, report);
  db.exec(STAGE_LEX_INDEXES);
  resolveAlternatives(db, report, progress);
  followCrossReferences(db, report);
  applyReversed(db, report);
  const standings = languageStandings(db, languages, activeAtGlossedEntries);
  const served = new Set(standings.filter((s) => s.active).map((s) => s.code));
  const total = identifyEntries(db, served, report, progress);
  db.exec(STAGE_ENTRY_INDEXES);
  resolveInflections(db, report, progress);
  const texts = alignedTexts(imported);
  addAttestedStandardSpellings(db, texts, sources, progress);
  const frequencyRanks = creditFrequencies(db, imported.frequency, texts, report);
  rankGlobally(db, frequencyRanks);
  const pronunciationCoverage = attachPronunciations(db, sources, report);
  const examples = attachSentences(db, imported.sentences, report);
  for (const [key, list] of attachAlignedSentences(db, texts, report)) examples.set(key, [...(examples.get(key) ?? []), ...list]);
  return { imported, checksums, standings, served, total, pronunciationCoverage, examples, frequencyRanks };
}

/** Served entries of a language without an English gloss. */
function emptyGlosses(facts: FactsTable, code: string): number {
  let n = 0;
  for (let g = 1; g <= facts.size; g++) if (facts.id[g] !== 0 && facts.languageOf(g) === code && facts.glossCount[g] === 0) n += 1;
  return n;
}

/** Each language's aligned sentences, indexed once for every step that weighs a word by its English. */
function alignedTexts(imported: Imported): Map<string, AlignedText> {
  const byLanguage = new Map<string, Imported['aligned']>();
  for (const a of imported.aligned) byLanguage.set(a.language, [...(byLanguage.get(a.language) ?? []), a]);
  return new Map([...byLanguage].map(([language, sentences]) => [language, new AlignedText(sentences)]));
}

/** What the entry step needs besides the staging file: sent to its worker threads as it is. */
function entryContext(db: Database.Database, files: BuildFiles, { sources, languages }: Manifests, staged: Staged): EntryContextData {
  return {
    stagePath: files.stagePath,
    languageNames: languages.map((l) => [l.code, l.name]),
    sources: sources.map((s) => [s.id, { source: { id: s.id, name: s.name, url: s.url, attribution: s.attribution }, licence: s.licence, dialect: s.dialect ?? null }]),
    ranks: [...staged.frequencyRanks],
    treebankExamples: [...staged.examples],
    keysWithVariants: (db.prepare('SELECT DISTINCT target_key AS k FROM stage.variant').all() as { k: string }[]).map((r) => r.k),
  };
}
