// What an importer is: the code that reads one source format, record by record, into the build's staging. One
// file per format in this folder, each registered under its manifest name in registry.ts.
import { z } from 'zod';

import type { CommonSource } from '../manifest.ts';
import type {
  AlignedOutcome,
  FrequencyOutcome,
  InflectionOutcome,
  Outcome,
  PronunciationOutcome,
  ReverseOutcome,
  SentenceOutcome,
} from '../records.ts';

/**
 * Where an importer puts what it reads. Each call takes one record of the source and counts it in the report as
 * read (a `skip` outcome excepted: a header or a blank line), then as its outcome says; the staging decides
 * the rest (imported now, or once the entries are known).
 */
export interface Staging {
  /** The source's data file, resolved against the corpora directory and checked to be readable. */
  readonly file: string;
  /** Another file the source names (relative to the corpora directory), resolved and checked the same way. */
  otherFile(name: string): string;
  lexicon(outcome: Outcome): void;
  sentence(outcome: SentenceOutcome): void;
  aligned(outcome: AlignedOutcome): void;
  frequency(outcome: FrequencyOutcome): void;
  pronunciation(outcome: PronunciationOutcome): void;
  inflection(outcome: InflectionOutcome): void;
  reverse(outcome: ReverseOutcome): void;
}

/** A source in the format of an importer with these options: the manifest's common fields and the format's own. */
export type SourceWith<Options extends z.AnyZodObject> = CommonSource & z.infer<Options>;

export interface Importer<Options extends z.AnyZodObject = z.AnyZodObject> {
  /** The manifest fields of a source in this format beyond the common ones, validated with the manifest. */
  readonly options: Options;
  /** Files the source names besides `file` (the build's input checksum covers them). */
  otherFiles?(source: SourceWith<Options>): (string | undefined)[];
  /** Reads the whole source into `into`; runs inside one transaction of the staging database. */
  read(source: SourceWith<Options>, into: Staging): void;
}

/** A format whose sources need nothing beyond the common manifest fields. */
export const NO_OPTIONS = z.object({});

/** Types `read` and `otherFiles` by the options schema (the identity at run time). */
export function defineImporter<Options extends z.AnyZodObject>(importer: Importer<Options>): Importer<Options> {
  return importer;
}
