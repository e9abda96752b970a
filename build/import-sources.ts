// Phase 1: every source file through its importer into the staging tables, counting each record.
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

import type Database from 'better-sqlite3';

import { fold } from '../services/shared/text.ts';
import { FrequencyTable } from './frequency.ts';
import { FormatError, parseConllu } from './importers/conllu.ts';
import { importIgboRecord } from './importers/igbo-api.ts';
import { importKaikkiRecord } from './importers/wiktextract.ts';
import { importUnilexLine } from './importers/unilex.ts';
import type { SourceManifest } from './manifest.ts';
import type { Progress } from './progress.ts';
import { readJsonObjectEntries, readLines } from './read/files.ts';
import type { Outcome, SentenceRecord, SourceContext } from './records.ts';
import { recordKey } from './records.ts';
import type { ReportBuilder } from './report.ts';

export class SourceError extends Error {
  override readonly name = 'SourceError';
}

export interface ImportResult {
  frequency: FrequencyTable;
  sentences: SentenceRecord[];
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
  const insertLex = db.prepare('INSERT INTO stage.lex (key, source_id, language, exact_form, pos, etym, data) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const insertAlt = db.prepare('INSERT INTO stage.alt (data) VALUES (?)');
  const frequency = new FrequencyTable();
  const sentences: SentenceRecord[] = [];
  const stage = (outcome: Outcome, sourceId: string): void => {
    for (const note of outcome.kind === 'rejected' ? [] : (outcome.notes ?? [])) report.note(sourceId, note);
    if (outcome.kind === 'rejected') report.rejected(sourceId, outcome.reason);
    else if (outcome.kind === 'alt') insertAlt.run(JSON.stringify(outcome.record));
    else {
      const r = outcome.record;
      insertLex.run(recordKey(r), r.sourceId, r.language, r.exactForm, r.partOfSpeech, r.etymologyNumber, JSON.stringify(r));
    }
  };
  for (const source of sources) {
    const file = path.join(corporaDir, source.file);
    checkSourceFile(file);
    report.source(source.id, file);
    const ctx: SourceContext = { id: source.id, language: source.language, verified: source.verified };
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
      }
    });
    run();
  }
  progress.end();
  return { frequency, sentences };
}

/** Folded key used to match frequency lines and entries. */
export function frequencyKey(exactForm: string): string {
  return fold(exactForm);
}
