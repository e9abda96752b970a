// Turns the merged records of one entry key into the served Entry (EntrySchema) and its summary.
import type { z } from 'zod';

import type { Entry, LicenceSchema, SourceSchema } from '../../services/shared/schemas.ts';
import type { ExampleRecord, FormRecord, LexRecord, VariantRecord } from './records.ts';

/** Summary glosses are for result lists; the full entry keeps every sense. */
export const MAX_SUMMARY_GLOSSES = 8;
/** Treebank sentences per entry: enough to show use, without one particle carrying 300 examples. */
export const MAX_TREEBANK_EXAMPLES_PER_ENTRY = 5;
/**
 * Forms of an inflection table listed in the entry (the table's first, in its order): a verb's table has hundreds,
 * which would bury the entry; every one still finds it (other_forms), and the entry says how many there are.
 */
export const MAX_LISTED_INFLECTIONS = 12;

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
  const senseSources = first.senses.map(() => first.sourceId);
  for (const r of records.slice(1)) {
    for (const sense of r.senses) {
      if (merged.senses.includes(sense)) continue;
      merged.senses.push(sense);
      senseSources.push(r.sourceId);
    }
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
  if (senseSources.some((id) => id !== first.sourceId)) merged.senseSources = senseSources;
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
  /** Inflection tables of the entry (UniMorph), by source, in manifest order: the total and the first forms. */
  inflections: readonly { sourceId: string; total: number; forms: { form: string; features: string }[] }[];
  /** Pronunciations in the order shown (snapshot/compiler/pronunciations.ts), the chosen one first. */
  pronunciations: readonly { ipa: string; sourceId: string }[];
  /** Finds the entry a form names in this language (exact, then case-insensitive, then unique folded). */
  resolve(form: string): LinkTarget | null;
  /** A source's credit, and the dialect its lexicon records (null for the standard language). */
  source(id: string): { source: z.infer<typeof SourceSchema>; licence: z.infer<typeof LicenceSchema>; dialect: Entry['dialect'] };
}

export function assembleEntry(record: LexRecord, ctx: AssembleContext): Entry {
  const senses = [...record.senses];
  const senseSources = [...(record.senseSources ?? record.senses.map(() => record.sourceId))];
  const related: Entry['related'] = [];
  for (const ref of record.crossReferences) {
    const target = ctx.resolve(ref.target);
    // A "see X" whose X is not an entry is ordinary text (often the English verb "see"): keep it.
    if (target === null || target.id === ctx.id) {
      senses.push(ref.text);
      senseSources.push(record.sourceId);
    }
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
    senses: senses.map((definition, i) => {
      // A sense merged from another source names its own source and licence (they can differ: GPL beside CC BY-SA).
      const from = senseSources[i] ?? record.sourceId;
      if (from === record.sourceId) return { number: i + 1, definition };
      const s = ctx.source(from);
      return { number: i + 1, definition, source: s.source, licence: s.licence };
    }),
    examples: examples.map((e) => {
      const s = ctx.source(e.sourceId);
      return { text: e.text, translation: e.translation, reference: e.reference, source: s.source, licence: s.licence };
    }),
    variants,
    forms,
    ...(ctx.inflections.length === 0
      ? {}
      : {
          inflections: ctx.inflections.map((t) => {
            const s = ctx.source(t.sourceId);
            return { total: t.total, forms: t.forms, source: s.source, licence: s.licence };
          }),
        }),
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
): Omit<Entry, 'languageName' | 'etymologyNumber' | 'senses' | 'examples' | 'variants' | 'forms' | 'inflections' | 'pronunciations' | 'derived' | 'related' | 'stems' | 'dialect' | 'source' | 'licence'> {
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
