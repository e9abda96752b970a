// The Staging an importer writes into, for one source: the staging tables, the in-memory tables of what attaches
// later (frequency, sentences), and the report's count of every record read.
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

import type Database from 'better-sqlite3';

import { fold } from '../../format/text.ts';
import type { FrequencyTable } from '../frequency.ts';
import type { Progress } from '../progress.ts';
import { SourceError } from '../read/errors.ts';
import type { AlignedSentenceRecord, LexRecord, Outcome, Rejected, SentenceRecord } from '../records.ts';
import { recordKey } from '../records.ts';
import type { ReportBuilder } from '../report.ts';
import type { Staging } from './importer.ts';

/** What the sources give beyond the staging tables: attached once the entries are known. */
export interface Imported {
  frequency: FrequencyTable;
  sentences: SentenceRecord[];
  /** Lines of translation corpora, attached as examples (snapshot/compiler/examples.ts). */
  aligned: AlignedSentenceRecord[];
}

function isRejected(outcome: { kind: string }): outcome is Rejected {
  return outcome.kind === 'rejected';
}

/** Fails early, naming the file, when a source file is missing or unreadable. */
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

/** The statements of the staging tables, prepared once for every source. */
export function stagingStatements(db: Database.Database) {
  return {
    lex: db.prepare(
      'INSERT INTO stage.lex (key, source_id, language, exact_form, pos, etym, glossed, counted, tone_marked, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    alt: db.prepare('INSERT INTO stage.alt (data) VALUES (?)'),
    inflection: db.prepare('INSERT INTO stage.inflection (source_id, language, form, headword, other_headword, features, pos) VALUES (?, ?, ?, ?, ?, ?, ?)'),
    pron: db.prepare('INSERT INTO stage.pron (source_id, language, key, word, ipa) VALUES (?, ?, ?, ?, ?)'),
    reverse: db.prepare('INSERT INTO stage.reverse (data) VALUES (?)'),
  };
}
export type StagingStatements = ReturnType<typeof stagingStatements>;

export interface SourceStagingInput {
  sourceId: string;
  corporaDir: string;
  file: string;
  statements: StagingStatements;
  imported: Imported;
  report: ReportBuilder;
  progress: Progress;
}

/** The Staging of one source (see Staging: each call counts one record read). */
export function sourceStaging({ sourceId, corporaDir, file, statements, imported, report, progress }: SourceStagingInput): Staging {
  const resolve = (name: string): string => {
    const full = path.join(corporaDir, name);
    checkSourceFile(full);
    return full;
  };
  /** Counts one record read; false, and counted rejected with its reason, when it was refused. */
  const accepted = <O extends { kind: string }>(outcome: O | Rejected): outcome is Exclude<O, Rejected> => {
    progress.tick();
    report.read(sourceId);
    if (!isRejected(outcome)) return true;
    report.rejected(sourceId, outcome.reason);
    return false;
  };
  const notes = (list: readonly string[] | undefined): void => {
    for (const note of list ?? []) report.note(sourceId, note);
  };
  const lex = (r: LexRecord, counted: boolean): void => {
    const glossed = r.senses.length > 0 ? 1 : 0;
    statements.lex.run(recordKey(r), r.sourceId, r.language, r.exactForm, r.partOfSpeech, r.etymologyNumber, glossed, counted ? 1 : 0, r.toneMarked ? 1 : 0, JSON.stringify(r));
  };
  return {
    file: resolve(file),
    otherFile: resolve,
    lexicon(outcome: Outcome) {
      if (!accepted(outcome)) return;
      notes(outcome.notes);
      if (outcome.kind === 'alt') return void statements.alt.run(JSON.stringify(outcome.record));
      // The raw record is reported through its first entry; further entries from it (one per part of speech)
      // are staged uncounted.
      lex(outcome.record, true);
      for (const r of outcome.extra ?? []) lex(r, false);
    },
    sentence(outcome) {
      if (accepted(outcome)) imported.sentences.push(outcome.record);
    },
    aligned(outcome) {
      if (!accepted(outcome)) return;
      notes(outcome.notes);
      imported.aligned.push(outcome.record);
    },
    frequency(outcome) {
      if (outcome.kind === 'skip' || !accepted(outcome)) return;
      notes(outcome.notes);
      // Imported or rejected once the entries are known: a line counts for the entry it writes (frequency.ts).
      imported.frequency.add(outcome.record);
    },
    pronunciation(outcome) {
      if (outcome.kind === 'skip' || !accepted(outcome)) return;
      notes(outcome.notes);
      const r = outcome.record;
      statements.pron.run(sourceId, r.language, fold(r.word), r.word, r.ipa);
    },
    inflection(outcome) {
      if (!accepted(outcome)) return;
      const r = outcome.record;
      statements.inflection.run(sourceId, r.language, r.form, r.headword, r.otherHeadword ?? null, r.features ?? null, r.partOfSpeech ?? null);
    },
    reverse(outcome) {
      if (accepted(outcome)) statements.reverse.run(JSON.stringify(outcome.record));
    },
  };
}
