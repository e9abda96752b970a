// Phase 1: every source file through its importer into the staging tables, counting each record.
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

import type Database from 'better-sqlite3';

import { fold } from '../../services/shared/text.ts';
import { FrequencyTable } from './frequency.ts';
import { FormatError, parseConllu } from './importers/conllu.ts';
import { importIgboRecord } from './importers/igbo-api.ts';
import { importFreedictEntry, importReversedFreedictEntry, parseTeiEntries } from './importers/freedict-tei.ts';
import { importAlignedLine } from './importers/ntrex.ts';
import { importIpaDictLine, importMfaLine, importWikipronLine } from './importers/pronunciations.ts';
import type { PronunciationOutcome } from './importers/pronunciations.ts';
import { importKaikkiRecord } from './importers/wiktextract.ts';
import { articleRecords, importWiktionaryLine } from './importers/wiktionary-tsv.ts';
import { importUnilexLine } from './importers/unilex.ts';
import type { SourceManifest } from './manifest.ts';
import type { Progress } from './progress.ts';
import { readJsonObjectEntries, readLines } from './read/files.ts';
import { readStarDict } from './read/stardict.ts';
import type { AlignedSentenceRecord, LexRecord, Outcome, SentenceRecord, SourceContext } from './records.ts';
import { recordKey } from './records.ts';
import type { ReportBuilder } from './report.ts';

export class SourceError extends Error {
  override readonly name = 'SourceError';
}

export interface ImportResult {
  frequency: FrequencyTable;
  sentences: SentenceRecord[];
  /** Lines of translation corpora, attached as examples once the entries are known (snapshot/compiler/examples.ts). */
  aligned: AlignedSentenceRecord[];
}

/** Fails early, naming the file, when a source is missing or unreadable. */
export function checkSourceFile(file: string): void {
  try {
    accessSync(file, constants.R_OK);
    if (!statSync(file).isFile()) throw new Error('not a regular file');
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'missing' : code === 'EACCES' ? 'unreadable (permission denied)' : (cause as Error).message;
    throw new SourceError(`${file}: source file ${why}`);
  }
}

export function importSources(
  db: Database.Database,
  corporaDir: string,
  sources: readonly SourceManifest[],
  report: ReportBuilder,
  progress: Progress,
): ImportResult {
  const insertLex = db.prepare(
    'INSERT INTO stage.lex (key, source_id, language, exact_form, pos, etym, glossed, counted, tone_marked, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const insertAlt = db.prepare('INSERT INTO stage.alt (data) VALUES (?)');
  const insertInflection = db.prepare('INSERT INTO stage.inflection (source_id, language, form, headword) VALUES (?, ?, ?, ?)');
  const insertPron = db.prepare('INSERT INTO stage.pron (source_id, language, key, ipa) VALUES (?, ?, ?, ?)');
  const insertReverse = db.prepare('INSERT INTO stage.reverse (data) VALUES (?)');
  const frequency = new FrequencyTable();
  const sentences: SentenceRecord[] = [];
  const aligned: AlignedSentenceRecord[] = [];
  const lex = (r: LexRecord, counted: boolean): void => {
    const glossed = r.senses.length > 0 ? 1 : 0;
    insertLex.run(recordKey(r), r.sourceId, r.language, r.exactForm, r.partOfSpeech, r.etymologyNumber, glossed, counted ? 1 : 0, r.toneMarked ? 1 : 0, JSON.stringify(r));
  };
  const stage = (outcome: Outcome, sourceId: string): void => {
    for (const note of outcome.kind === 'rejected' ? [] : (outcome.notes ?? [])) report.note(sourceId, note);
    if (outcome.kind === 'rejected') report.rejected(sourceId, outcome.reason);
    else if (outcome.kind === 'alt') insertAlt.run(JSON.stringify(outcome.record));
    else {
      // The raw record is reported through its first entry; further entries from it (one per part of speech)
      // are staged uncounted.
      lex(outcome.record, true);
      for (const r of outcome.extra ?? []) lex(r, false);
    }
  };
  const stagePronunciation = (outcome: PronunciationOutcome, sourceId: string): void => {
    if (outcome.kind === 'skip') return;
    report.read(sourceId);
    if (outcome.kind === 'rejected') return report.rejected(sourceId, outcome.reason);
    for (const note of outcome.notes) report.note(sourceId, note);
    const r = outcome.record;
    insertPron.run(sourceId, r.language, fold(r.word), r.ipa);
  };
  for (const source of sources) {
    const file = path.join(corporaDir, source.file);
    checkSourceFile(file);
    report.source(source.id, file, source.language);
    const ctx: SourceContext = { id: source.id, language: source.language, verified: source.verified };
    const lines = (): string[] => [...readLines(file)].map((l) => l.replace(/\r$/, ''));
    progress.phase(`import ${source.id}`, 0);
    const run = db.transaction(() => {
      switch (source.importer) {
        case 'igbo-api-json':
        case 'kaikki-json':
          for (const [key, value] of readJsonObjectEntries(file)) {
            if (!Array.isArray(value)) throw new FormatError(`${file}: not its format (value of key ${JSON.stringify(key)} is not an array of records)`);
            for (const raw of value) {
              report.read(source.id);
              stage(source.importer === 'igbo-api-json' ? importIgboRecord(key, raw, ctx) : importKaikkiRecord(raw, ctx), source.id);
              progress.tick();
            }
          }
          break;
        case 'conllu':
          for (const outcome of parseConllu(readLines(file), ctx, file)) {
            report.read(source.id);
            if (outcome.kind === 'rejected') report.rejected(source.id, outcome.reason);
            else sentences.push(outcome.record);
            progress.tick();
          }
          break;
        case 'unilex-tsv': {
          let lineNo = 0;
          for (const line of readLines(file)) {
            const outcome = importUnilexLine(line, ++lineNo, ctx, file);
            if (outcome.kind === 'skip') continue;
            report.read(source.id);
            if (outcome.kind === 'rejected') report.rejected(source.id, outcome.reason);
            else {
              for (const note of outcome.notes) report.note(source.id, note);
              // The first line of a folded key is imported; later ones add their frequency to it.
              if (frequency.add(outcome.record)) report.imported(source.id);
              else report.merged(source.id, 'same folded form as a more frequent line (frequencies added)');
            }
            progress.tick();
          }
          break;
        }
        case 'wiktionary-tsv':
          for (const line of readLines(file)) {
            if (line.trim() === '') continue;
            report.read(source.id);
            stage(importWiktionaryLine(line, { ...ctx, headword: source.headword }), source.id);
            progress.tick();
          }
          break;
        case 'stardict-tar':
          for (const { headword, article } of readStarDict(file, { synonyms: false }).articles) {
            report.read(source.id);
            stage(articleRecords(headword, [], article, { ...ctx, headword: source.headword }), source.id);
            progress.tick();
          }
          break;
        case 'stardict-syn': {
          // Inflected forms lead to their entry (snapshot/compiler/forms.ts decides imported, merged or rejected).
          const { articles, synonyms } = readStarDict(file);
          for (const { form, article } of synonyms) {
            report.read(source.id);
            const headword = articles[article]?.headword;
            if (headword === undefined) report.rejected(source.id, 'points at no article of the dictionary');
            else insertInflection.run(source.id, source.language, form, headword);
          }
          break;
        }
        case 'freedict-tei':
          for (const entry of parseTeiEntries(lines().join('\n'), file)) {
            report.read(source.id);
            stage(importFreedictEntry(entry, ctx), source.id);
            progress.tick();
          }
          break;
        case 'freedict-tei-reversed':
          // Decided once the other sources are staged (snapshot/compiler/reverse.ts): only what the forward edition lacks counts.
          for (const entry of parseTeiEntries(lines().join('\n'), file)) {
            report.read(source.id);
            const outcome = importReversedFreedictEntry(entry, ctx);
            if (outcome.kind === 'rejected') report.rejected(source.id, outcome.reason);
            else insertReverse.run(JSON.stringify(outcome.record));
          }
          break;
        case 'wikipron-tsv':
          for (const line of readLines(file)) stagePronunciation(importWikipronLine(line, ctx), source.id);
          break;
        case 'mfa-dict':
          for (const line of readLines(file)) stagePronunciation(importMfaLine(line, ctx), source.id);
          break;
        case 'ipa-dict-tsv':
          for (const line of readLines(file)) stagePronunciation(importIpaDictLine(line, ctx), source.id);
          break;
        case 'ntrex-lines': {
          const text = lines();
          const translationFile = path.join(corporaDir, source.translationFile ?? '');
          checkSourceFile(translationFile);
          const english = [...readLines(translationFile)].map((l) => l.replace(/\r$/, ''));
          const ids = source.referenceFile ? [...readLines(path.join(corporaDir, source.referenceFile))] : [];
          if (text.at(-1) === '') text.pop();
          if (english.at(-1) === '') english.pop();
          if (text.length !== english.length) throw new FormatError(`${file}: ${text.length} lines, but its English file has ${english.length}: not line-aligned`);
          text.forEach((line, i) => {
            report.read(source.id);
            const outcome = importAlignedLine(i + 1, line, english[i], ids[i], ctx);
            if (outcome.kind === 'rejected') return report.rejected(source.id, outcome.reason);
            for (const note of outcome.notes) report.note(source.id, note);
            aligned.push(outcome.record);
          });
          break;
        }
      }
    });
    run();
  }
  progress.end();
  return { frequency, sentences, aligned };
}

/** Folded key used to match frequency lines and entries. */
export function frequencyKey(exactForm: string): string {
  return fold(exactForm);
}
