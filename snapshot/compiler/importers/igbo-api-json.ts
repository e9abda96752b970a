// Importer for the Igbo API dictionary (one JSON object: headword → [record]), one record at a time.
import { z } from 'zod';

import { normalise } from '../../format/text.ts';
import type { ExampleRecord, LexRecord, Outcome, SourceContext } from '../records.ts';
import { readJsonRecordLists } from '../read/files.ts';
import { crossReferenceTarget, splitMergedExamples } from './igbo-definitions.ts';
import { NO_OPTIONS, defineImporter } from './importer.ts';
import { igboPartOfSpeech } from './parts-of-speech.ts';

const RawIgboRecordSchema = z.object({
  word: z.string(),
  wordClass: z.string().nullish(),
  definitions: z.array(z.string()).nullish(),
  examples: z.array(z.object({ igbo: z.string().nullish(), english: z.string().nullish() })).nullish(),
  variations: z.array(z.string()).nullish(),
  stems: z.array(z.string()).nullish(),
});

/** Alphabet section headings that the parser of the printed dictionary turned into records (`A`, `GB`). */
const SECTION_HEADING = /^[A-ZỊỤỌŊ]{1,2}$/u;

function uniqueNonEmpty(values: string[], exclude?: string): string[] {
  const out: string[] = [];
  for (const v of values.map(normalise)) if (v !== '' && v !== exclude && !out.includes(v)) out.push(v);
  return out;
}

/** One raw record (under `key`) → an entry record or a rejection. Pure. */
export function importIgboRecord(key: string, raw: unknown, source: SourceContext): Outcome {
  const sourceId = source.id;
  const parsed = RawIgboRecordSchema.safeParse(raw);
  if (!parsed.success) return { kind: 'rejected', reason: 'malformed record (not {word, definitions, ...})' };
  const r = parsed.data;
  const form = normalise(r.word) || normalise(key);
  if (form === '') return { kind: 'rejected', reason: 'empty headword' };
  const notes: string[] = [];
  if (form !== r.word || form !== key) notes.push('headword whitespace trimmed or collapsed');
  if (form.startsWith('-')) notes.push('verb root with leading hyphen (kept; search ignores it)');

  const senses: string[] = [];
  const crossReferences: LexRecord['crossReferences'] = [];
  const examples: ExampleRecord[] = [];
  for (const definition of uniqueNonEmpty(r.definitions ?? [])) {
    const target = crossReferenceTarget(definition);
    if (target !== null && target !== form) {
      crossReferences.push({ target, text: definition });
      continue;
    }
    const split = splitMergedExamples(definition);
    if (split.examples.length > 0) notes.push('examples split out of the definition text');
    senses.push(split.definition);
    for (const e of split.examples) examples.push({ text: e.text, translation: e.translation, reference: null, sourceId });
  }
  for (const e of r.examples ?? []) {
    const text = normalise(e.igbo ?? '');
    if (text === '') continue;
    const translation = normalise(e.english ?? '');
    examples.push({ text, translation: translation === '' ? null : translation, reference: null, sourceId });
  }
  if (senses.length === 0 && crossReferences.length === 0 && examples.length === 0) {
    return {
      kind: 'rejected',
      reason: SECTION_HEADING.test(form) ? 'alphabet section heading, not a word' : 'no definitions or examples',
    };
  }
  const record: LexRecord = {
    sourceId,
    language: source.language,
    exactForm: form,
    partOfSpeech: igboPartOfSpeech(r.wordClass ?? '', form),
    etymologyNumber: null,
    pronunciation: null,
    senses,
    examples,
    variants: uniqueNonEmpty(r.variations ?? [], form).map((v) => ({ form: v, kind: 'variant' as const })),
    derived: [],
    components: [],
    crossReferences,
    stems: uniqueNonEmpty(r.stems ?? []),
    verified: source.verified,
  };
  return { kind: 'lexicon', record, notes };
}

export const igboApiJson = defineImporter({
  options: NO_OPTIONS,
  read(source, into) {
    for (const [key, raw] of readJsonRecordLists(into.file)) into.lexicon(importIgboRecord(key, raw, source));
  },
});
