// Turns the merged records of one entry key into the served Entry (EntrySchema) and its summary.
import type { z } from 'zod';

import type { Entry, LicenceSchema, SourceSchema } from '../../services/shared/schemas.ts';
import type { ExampleRecord, FormRecord, LexRecord, VariantRecord } from './records.ts';

/** Summary glosses are for result lists; the full entry keeps every sense. */
export const MAX_SUMMARY_GLOSSES = 8;
/** Treebank sentences per entry: enough to show use, without one particle carrying 300 examples. */
export const MAX_TREEBANK_EXAMPLES_PER_ENTRY = 5;

function pushUnique<T>(into: T[], values: readonly T[], same: (a: T, b: T) => boolean): void {
  for (const v of values) if (!into.some((x) => same(x, v))) into.push(v);
}

/** Merges records that share one key (duplicates from the export, or the same word in two sources). */
export function mergeRecords(records: readonly LexRecord[]): LexRecord {
  const first = records[0];
  const merged: LexRecord = {
    ...first,
    senses: [...first.senses],
    examples: [...first.examples],
    variants: [...first.variants],
    derived: [...first.derived],
    components: [...first.components],
    crossReferences: [...first.crossReferences],
    stems: [...first.stems],
    forms: [...(first.forms ?? [])],
  };
  const eq = (a: string, b: string): boolean => a === b;
  for (const r of records.slice(1)) {
    pushUnique(merged.senses, r.senses, eq);
    pushUnique(merged.examples, r.examples, (a, b) => a.text === b.text);
    pushUnique(merged.variants, r.variants, (a, b) => a.form === b.form);
    pushUnique(merged.derived, r.derived, eq);
    pushUnique(merged.components, r.components, eq);
    pushUnique(merged.crossReferences, r.crossReferences, (a, b) => a.target === b.target);
    pushUnique(merged.stems, r.stems, eq);
    pushUnique(merged.forms ?? [], r.forms ?? [], (a, b) => a.form === b.form);
    merged.toneMarked = merged.toneMarked || r.toneMarked;
    merged.verified = merged.verified || r.verified;
    merged.pronunciation = merged.pronunciation ?? r.pronunciation;
  }
  return merged;
}

export interface LinkTarget {
  id: number;
  slug: string;
}

export interface AssembleContext {
  id: number;
  slug: string;
  languageName: string;
  frequencyRank: number | null;
  isCommon: boolean;
  /** Variants from alternative-spelling records that point at this entry. */
  extraVariants: readonly VariantRecord[];
  /** Sentences attached from treebanks and translation corpora. */
  extraExamples: readonly ExampleRecord[];
  /** Forms from records that are forms of this entry (FreeDict plural entries). */
  extraForms: readonly FormRecord[];
  /** Pronunciations in the order shown (snapshot/compiler/pronunciations.ts), the chosen one first. */
  pronunciations: readonly { ipa: string; sourceId: string }[];
  /** Finds the entry a form names in this language (exact, then case-insensitive, then unique folded). */
  resolve(form: string): LinkTarget | null;
  /** A source's credit, and the dialect its lexicon records (null for the standard language). */
  source(id: string): { source: z.infer<typeof SourceSchema>; licence: z.infer<typeof LicenceSchema>; dialect: Entry['dialect'] };
}

export function assembleEntry(record: LexRecord, ctx: AssembleContext): Entry {
  const senses = [...record.senses];
  const related: Entry['related'] = [];
  for (const ref of record.crossReferences) {
    const target = ctx.resolve(ref.target);
    // A "see X" whose X is not an entry is ordinary text (often the English verb "see"): keep it.
    if (target === null || target.id === ctx.id) senses.push(ref.text);
    else if (!related.some((r) => r.id === target.id)) related.push({ form: ref.target, relation: 'see-also', id: target.id, slug: target.slug });
  }
  const link = (form: string, relation: 'derived' | 'component'): Entry['derived'][number] => {
    const target = ctx.resolve(form);
    return { form, relation, id: target?.id ?? null, slug: target?.slug ?? null };
  };
  for (const form of record.components) related.push(link(form, 'component'));
  const variants: Entry['variants'] = [];
  pushUnique(
    variants,
    [...record.variants, ...ctx.extraVariants].filter((v) => v.form !== record.exactForm).map((v) => ({ form: v.form, kind: v.kind, note: v.note ?? null })),
    (a, b) => a.form === b.form,
  );
  const forms: Entry['forms'] = [];
  pushUnique(forms, [...(record.forms ?? []), ...ctx.extraForms].filter((f) => f.form !== record.exactForm), (a, b) => a.form === b.form);
  const examples = [...record.examples];
  pushUnique(examples, ctx.extraExamples, (a, b) => a.text === b.text);
  const own = ctx.source(record.sourceId);
  return {
    id: ctx.id,
    language: record.language,
    headword: record.exactForm,
    exactForm: record.exactForm,
    slug: ctx.slug,
    pronunciation: ctx.pronunciations[0]?.ipa ?? record.pronunciation,
    isCommon: ctx.isCommon,
    isVerified: record.verified,
    frequencyRank: ctx.frequencyRank,
    glosses: senses.slice(0, MAX_SUMMARY_GLOSSES),
    partOfSpeech: record.partOfSpeech,
    languageName: ctx.languageName,
    etymologyNumber: record.etymologyNumber,
    senses: senses.map((definition, i) => ({ number: i + 1, definition })),
    examples: examples.map((e) => {
      const s = ctx.source(e.sourceId);
      return { text: e.text, translation: e.translation, reference: e.reference, source: s.source, licence: s.licence };
    }),
    variants,
    forms,
    pronunciations: ctx.pronunciations.map((p) => {
      const s = ctx.source(p.sourceId);
      return { ipa: p.ipa, source: s.source, licence: s.licence };
    }),
    derived: record.derived.map((form) => link(form, 'derived')),
    related,
    stems: record.stems,
    dialect: own.dialect,
    source: own.source,
    licence: own.licence,
  };
}

/** The search-result summary of an entry (WordSummary without matchType and score). */
export function summaryOf(
  entry: Entry,
): Omit<Entry, 'languageName' | 'etymologyNumber' | 'senses' | 'examples' | 'variants' | 'forms' | 'pronunciations' | 'derived' | 'related' | 'stems' | 'dialect' | 'source' | 'licence'> {
  return {
    id: entry.id,
    language: entry.language,
    headword: entry.headword,
    exactForm: entry.exactForm,
    slug: entry.slug,
    pronunciation: entry.pronunciation,
    isCommon: entry.isCommon,
    isVerified: entry.isVerified,
    frequencyRank: entry.frequencyRank,
    glosses: entry.glosses,
    partOfSpeech: entry.partOfSpeech,
  };
}
