// Importer for kaikki.org's Wiktextract lexicons (one JSON object: folded headword → [record]), one record at a time.
import { z } from 'zod';

import { normalise } from '../../format/text.ts';
import { readJsonRecordLists } from '../read/files.ts';
import type { LexRecord, Outcome, SourceContext } from '../records.ts';
import { NO_OPTIONS, defineImporter } from './importer.ts';
import { KAIKKI_POS } from './parts-of-speech.ts';

const RawKaikkiRecordSchema = z.object({
  pos: z.string(),
  etymologyNumber: z.union([z.string(), z.number()]).nullish(),
  headword: z.string(),
  canonicalForm: z
    .object({ value: z.string().nullish(), confidence: z.number().nullish(), inferenceMethod: z.string().nullish() })
    .nullish(),
  standardForms: z.array(z.string()).nullish(),
  glosses: z.array(z.string()).nullish(),
  altOfTargets: z.array(z.string()).nullish(),
  componentCandidates: z.array(z.object({ form: z.string() })).nullish(),
  derivedForms: z.array(z.string()).nullish(),
});

const ARABIC_SCRIPT = /[\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff]/;
const LATIN_LETTER_FORM = /^[\p{Script=Latin}\p{M}]+$/u;

function uniqueNonEmpty(values: readonly string[], exclude?: string): string[] {
  const out: string[] = [];
  for (const v of values.map(normalise)) if (v !== '' && v !== exclude && !out.includes(v)) out.push(v);
  return out;
}

/** Latin-script letters an Ajami letter record names as its equivalent ("equivalent F", "f", gloss text). */
export function ajamiEquivalents(standardForms: readonly string[], glosses: readonly string[]): string[] {
  const found: string[] = [];
  for (const form of standardForms) {
    const value = normalise(form.replace(/^equivalent\s+/i, ''));
    if (LATIN_LETTER_FORM.test(value)) found.push(value);
  }
  for (const gloss of glosses) {
    const match = /equivalent to Latin script ([\p{L}\p{M}]+)/u.exec(gloss);
    if (match) found.push(normalise(match[1]));
  }
  return uniqueNonEmpty(found.flatMap((f) => [f, f.toLowerCase()]));
}

/** One raw record → an entry record, an alternative spelling of other entries, or a rejection. Pure. */
export function importKaikkiRecord(raw: unknown, source: SourceContext): Outcome {
  const parsed = RawKaikkiRecordSchema.safeParse(raw);
  if (!parsed.success) return { kind: 'rejected', reason: 'malformed record (not a kaikki lexicon record)' };
  const r = parsed.data;
  const form = normalise(r.canonicalForm?.value ?? '') || normalise(r.headword);
  if (form === '') return { kind: 'rejected', reason: 'empty headword' };
  const glosses = uniqueNonEmpty(r.glosses ?? []);
  if (glosses.length === 0) return { kind: 'rejected', reason: 'no glosses' };
  const partOfSpeech = KAIKKI_POS[r.pos] ?? 'other';
  const notes: string[] = [];
  if (!(r.pos in KAIKKI_POS)) notes.push(`unknown part of speech "${r.pos}" mapped to other`);
  const etymology = r.etymologyNumber == null ? null : Number.parseInt(String(r.etymologyNumber), 10);
  // Forms the export inferred (confidence < 1) are served, but not as verified.
  const inferred = (r.canonicalForm?.confidence ?? 1) < 1;
  const record: LexRecord = {
    sourceId: source.id,
    language: source.language,
    exactForm: form,
    partOfSpeech,
    etymologyNumber: Number.isFinite(etymology) ? etymology : null,
    pronunciation: null,
    senses: glosses,
    examples: [],
    variants: [],
    derived: uniqueNonEmpty(r.derivedForms ?? [], form),
    components: uniqueNonEmpty((r.componentCandidates ?? []).map((c) => c.form), form),
    crossReferences: [],
    stems: [],
    verified: source.verified && !inferred,
    // The canonical form is the tone-marked one (a word without marks is all mid tones in Yoruba spelling).
    toneMarked: normalise(r.canonicalForm?.value ?? '') !== '',
  };
  if (partOfSpeech === 'letter' && ARABIC_SCRIPT.test(form)) {
    // Ajami letters become alternative spellings of the Latin-script letter they stand for.
    const targets = ajamiEquivalents(r.standardForms ?? [], glosses);
    return {
      kind: 'alt',
      record: {
        sourceId: source.id,
        language: source.language,
        form,
        partOfSpeech,
        targets,
        kind: 'alternative-spelling',
        fallback: null,
        missingTargetReason: 'Ajami letter whose Latin-script letter is not an entry',
      },
      notes: ['Ajami (Arabic-script) letter'],
    };
  }
  const targets = uniqueNonEmpty(r.altOfTargets ?? [], form);
  if (targets.length > 0) {
    return {
      kind: 'alt',
      record: {
        sourceId: source.id,
        language: source.language,
        form,
        partOfSpeech,
        targets,
        kind: 'alternative-spelling',
        fallback: record,
        missingTargetReason: 'alternative spelling of a missing entry',
      },
      notes,
    };
  }
  return { kind: 'lexicon', record, notes };
}

export const kaikkiJson = defineImporter({
  options: NO_OPTIONS,
  read(source, into) {
    for (const [, raw] of readJsonRecordLists(into.file)) into.lexicon(importKaikkiRecord(raw, source));
  },
});
