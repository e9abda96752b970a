// Records that importers produce: the common shape every source format is turned into.
import type { PartOfSpeech } from '../services/shared/vocabulary.ts';

export interface ExampleRecord {
  text: string;
  translation: string | null;
  reference: string | null;
  /** Source id; its licence and attribution come from the manifest. */
  sourceId: string;
}

export interface VariantRecord {
  form: string;
  kind: 'variant' | 'alternative-spelling';
}

/** One dictionary record, normalised, before records with the same identity are merged. */
export interface LexRecord {
  sourceId: string;
  language: string;
  exactForm: string;
  partOfSpeech: PartOfSpeech;
  etymologyNumber: number | null;
  pronunciation: string | null;
  /** Definitions in source order (glosses are derived from them). */
  senses: string[];
  examples: ExampleRecord[];
  variants: VariantRecord[];
  derived: string[];
  components: string[];
  /** "see X" cross-references; linked when X is an entry, else kept as definitions (`text`). */
  crossReferences: { target: string; text: string }[];
  stems: string[];
  verified: boolean;
}

/** A record that only spells another entry differently; becomes a variant of its target(s). */
export interface AltRecord {
  sourceId: string;
  language: string;
  form: string;
  partOfSpeech: PartOfSpeech;
  targets: string[];
  kind: 'variant' | 'alternative-spelling';
  /** Imported as its own entry when no target exists; null = rejected then. */
  fallback: LexRecord | null;
  /** Rejection reason when there is no target and no fallback. */
  missingTargetReason: string;
}

export interface FrequencyRecord {
  sourceId: string;
  language: string;
  /** Folded form, modernised when it is a known old spelling. */
  key: string;
  frequency: number;
}

export interface SentenceRecord {
  sourceId: string;
  language: string;
  id: string;
  text: string;
  translation: string | null;
  /** Lemmas with their (mapped) part of speech, in sentence order. */
  lemmas: { lemma: string; partOfSpeech: PartOfSpeech | null }[];
}

/** What an importer step decided for one raw record. */
export type Outcome =
  | { kind: 'lexicon'; record: LexRecord; notes?: string[] }
  | { kind: 'alt'; record: AltRecord; notes?: string[] }
  | { kind: 'rejected'; reason: string };

/** Dictionary record key: one entry per language, exact form, part of speech and etymology. */
export function recordKey(r: Pick<LexRecord, 'language' | 'exactForm' | 'partOfSpeech' | 'etymologyNumber'>): string {
  return [r.language, r.exactForm, r.partOfSpeech, r.etymologyNumber ?? ''].join('\u0001');
}

/** What an importer needs to know about the source it reads (from the manifest). */
export interface SourceContext {
  id: string;
  language: string;
  verified: boolean;
}
