// Records that importers produce: the common shape every source format is turned into.
import type { PartOfSpeech } from '../../services/shared/vocabulary.ts';

export interface ExampleRecord {
  text: string;
  translation: string | null;
  reference: string | null;
  /** Source id; its licence and attribution come from the manifest. */
  sourceId: string;
}

export interface VariantRecord {
  form: string;
  kind: 'variant' | 'alternative-spelling' | 'standard-spelling';
  /** Where a derived spelling comes from (standard-spelling: the rules and the text that attests it). */
  note?: string;
}

/**
 * Another form a source lists for the entry (services/shared/schemas.ts FormSchema): a tone-marked spelling of
 * the headword, a romanisation, a spelling in another script, or an unlabelled form (plural, possessed form…).
 */
export interface FormRecord {
  form: string;
  kind: 'tone-marked' | 'spelling' | 'romanisation' | 'other-script' | 'plural' | 'form' | 'stem' | 'class-form';
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
  /**
   * The source of each sense, where records of several sources were merged (mergeRecords): a sense from a source
   * other than the entry's names its own source and licence. Absent on a record as an importer stages it.
   */
  senseSources?: string[];
  examples: ExampleRecord[];
  variants: VariantRecord[];
  derived: string[];
  components: string[];
  /** "see X" cross-references; linked when X is an entry, else kept as definitions (`text`). */
  crossReferences: { target: string; text: string }[];
  stems: string[];
  verified: boolean;
  /** Other forms the source lists (searchable; the first of a kind is not a headword). */
  forms?: FormRecord[];
  /** The exact form is written with its tones (so a pronunciation's tones can be checked against it). */
  toneMarked?: boolean;
}

/** A record that only spells another entry differently; becomes a variant of its target(s). */
export interface AltRecord {
  sourceId: string;
  language: string;
  form: string;
  partOfSpeech: PartOfSpeech;
  targets: string[];
  /** plural: the record is a plural form of its targets (FreeDict), listed among their forms. */
  kind: 'variant' | 'alternative-spelling' | 'plural';
  /** Imported as its own entry when no target exists; null = rejected then. */
  fallback: LexRecord | null;
  /** Rejection reason when there is no target and no fallback. */
  missingTargetReason: string;
}

export interface FrequencyRecord {
  sourceId: string;
  language: string;
  /** The form as the list writes it (normalised); a known old spelling as the modern one's folded form. */
  form: string;
  frequency: number;
}

export interface SentenceRecord {
  sourceId: string;
  language: string;
  id: string;
  text: string;
  translation: string | null;
  /** Lemmas with their (mapped) part of speech and the token's English gloss where the treebank gives one. */
  lemmas: { lemma: string; partOfSpeech: PartOfSpeech | null; gloss?: string }[];
}

/** An inflected form that leads to its entry (Zulu StarDict synonyms, UniMorph tables): never a headword. */
export interface InflectionRecord {
  sourceId: string;
  language: string;
  form: string;
  /** The entry's headword as the source names it. */
  headword: string;
  /** Where no entry has `headword` (of the row's part of speech): the headword to try next (see ReverseRecord.otherForm). */
  otherHeadword?: string;
  /** The form's features where the source labels them (UniMorph: `V;1;SG;PRS`): the entry lists such forms. */
  features?: string;
  /** The lemma's part of speech where the source gives it: only entries of it take the form. */
  partOfSpeech?: PartOfSpeech;
}

/** One pronunciation row: a spelling and its IPA. */
export interface PronunciationRecord {
  sourceId: string;
  language: string;
  word: string;
  ipa: string;
}

/** One line of a line-aligned translation corpus, with its English line. */
export interface AlignedSentenceRecord {
  sourceId: string;
  language: string;
  line: number;
  text: string;
  translation: string;
  reference: string | null;
}

/**
 * English senses of a word that count only where they add something to the entries of that word (reverse.ts): a
 * pair of a reversed dictionary (English headword → word of the language), or a headword of a translation list
 * without parts of speech (FreeDict afr-eng), whose senses join the entry of the same word.
 */
export interface ReverseRecord {
  sourceId: string;
  language: string;
  form: string;
  /**
   * Where the word has no entry under `form`: the form to look it up by next, and to make a new entry under
   * (an Amharic verb's infinitive, by which Wiktionary lists most verbs; UniMorph's lemma is the perfective).
   */
  otherForm?: string;
  senses: string[];
  /** null: the source gives none (the senses join the word's entry whatever its part of speech, when it has one). */
  partOfSpeech: PartOfSpeech | null;
}

/** A record read and refused, with the reason the report gives. */
export type Rejected = { kind: 'rejected'; reason: string };
/** A line that holds no record (a header, a comment, a blank line): not counted as read. */
export type Skipped = { kind: 'skip' };

/** What an importer step decided for one raw dictionary record. */
export type Outcome =
  /** `extra`: further entries read from the same raw record (one per part of speech); reported with it. */
  | { kind: 'lexicon'; record: LexRecord; extra?: LexRecord[]; notes?: string[] }
  | { kind: 'alt'; record: AltRecord; notes?: string[] }
  | Rejected;

export type SentenceOutcome = { kind: 'sentence'; record: SentenceRecord } | Rejected;
export type AlignedOutcome = { kind: 'sentence'; record: AlignedSentenceRecord; notes: string[] } | Rejected;
export type FrequencyOutcome = { kind: 'frequency'; record: FrequencyRecord; notes: string[] } | Rejected | Skipped;
export type PronunciationOutcome = { kind: 'pronunciation'; record: PronunciationRecord; notes: string[] } | Rejected | Skipped;
export type InflectionOutcome = { kind: 'inflection'; record: InflectionRecord } | Rejected;
export type ReverseOutcome = { kind: 'reverse'; record: ReverseRecord } | Rejected;

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
