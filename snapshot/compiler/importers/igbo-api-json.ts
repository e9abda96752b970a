// Importer for the Igbo API dictionary (one JSON object: headword → [record]), one record at a time.
import { z } from 'zod';

import { fold, normalise } from '../../format/text.ts';
import { englishBases, holdsMeaning, meaningsOf } from '../english-meaning.ts';
import type { ExampleRecord, LexRecord, Outcome, SourceContext } from '../records.ts';
import { readJsonRecordLists } from '../read/files.ts';
import { decodeEntities } from './html-entities.ts';
import { crossReferenceTarget, splitMergedExamples } from './igbo-definitions.ts';
import { balanceParentheses, joinAcrossRecords, restoreLostSpaces } from './igbo-repairs.ts';
import { NO_OPTIONS, defineImporter } from './importer.ts';
import { igboPartOfSpeech } from './parts-of-speech.ts';

const RawIgboRecordSchema = z.object({
  word: z.string(),
  wordClass: z.string().nullish(),
  definitions: z.array(z.string()).nullish(),
  examples: z.array(z.object({ igbo: z.string().nullish(), english: z.string().nullish() })).nullish(),
  variations: z.array(z.string()).nullish(),
  stems: z.array(z.string()).nullish(),
  /** Set by joinSplitDefinition: the record's last definition was completed from the next record's first. */
  joinedDown: z.boolean().optional(),
  /** Set by joinSplitDefinition: the record's first definition was moved up to complete the previous record's. */
  joinedUp: z.boolean().optional(),
});

/** Alphabet section headings that the parser of the printed dictionary turned into records (`A`, `GB`). */
const SECTION_HEADING = /^[A-ZỊỤỌŊ]{1,2}$/u;
/** A sense letter of an article ("B."), parsed as a record of its own. */
const SENSE_LETTER = /^[A-Z]\.$/;

function uniqueNonEmpty(values: string[], exclude?: string): string[] {
  const out: string[] = [];
  for (const v of values.map(normalise)) if (v !== '' && v !== exclude && !out.includes(v)) out.push(v);
  return out;
}

/**
 * A definition as the parser should have left it: character references decoded (`&lt; Hausa`), the lost spaces it
 * marked with '#' restored, its parentheses made whole (igbo-repairs.ts); each repair noted.
 */
function repairDefinition(raw: string, notes: string[]): string {
  let text = decodeEntities(raw);
  if (text !== raw) notes.push('HTML character reference decoded');
  const spaced = restoreLostSpaces(text);
  if (spaced !== text) notes.push("'#' read as the space the parser lost");
  const balanced = balanceParentheses(spaced);
  if (balanced.repaired) notes.push('parentheses left open or unopened repaired');
  text = normalise(balanced.text);
  return text;
}

/**
 * Whether an example of the record speaks of its word: the Igbo holds the headword (folded, each of its words as
 * part of a word: verbs take affixes) or one of its longer stems, or the English holds one of its meanings. The parser put
 * some examples on the wrong record (nwaànyì's three speak of none of its words).
 */
function namesTheWord(example: ExampleRecord, form: string, stems: readonly string[], senses: readonly string[]): boolean {
  const words = new Set(fold(example.text).split(/[^\p{L}']+/u));
  // The headword's words (a reduplicated verb's parts: -kpù-kpù), and stems of three letters or more (kà is everywhere).
  const parts = [...fold(form).split(/[\s-]+/).filter((w) => [...w].length >= 2), ...stems.map((st) => fold(st)).filter((w) => [...w].length >= 3)];
  if (parts.some((p) => [...words].some((w) => w.includes(p)))) return true;
  return example.translation !== null && holdsMeaning(englishBases(example.translation), meaningsOf(senses));
}

/** One raw record (under `key`) → an entry record or a rejection. Pure. */
export function importIgboRecord(key: string, raw: unknown, source: SourceContext): Outcome {
  const sourceId = source.id;
  const parsed = RawIgboRecordSchema.safeParse(raw);
  if (!parsed.success) return { kind: 'rejected', reason: 'malformed record (not {word, definitions, ...})' };
  const r = parsed.data;
  const form = normalise(r.word) || normalise(key);
  if (form === '') return { kind: 'rejected', reason: 'empty headword' };
  // A stray character (` or a private-use code point) as the key of an example cut from its record.
  if (!/\p{L}/u.test(form)) return { kind: 'rejected', reason: 'headword without a letter: a stray character keying an example cut from its record' };
  // "A." … "D.": sense letters of a verb root's article parsed as records; their definitions belong to the roots.
  if (SENSE_LETTER.test(form)) return { kind: 'rejected', reason: "a sense letter (A., B. …), not a word: its definitions are senses of the verb roots it lists as stems" };
  const notes: string[] = [];
  if (form !== r.word || form !== key) notes.push('headword whitespace trimmed or collapsed');
  if (form.startsWith('-')) notes.push('verb root with leading hyphen (kept; search ignores it)');
  if (r.joinedDown) notes.push('definition cut at a record boundary completed from the next record');

  const senses: string[] = [];
  const crossReferences: LexRecord['crossReferences'] = [];
  const examples: ExampleRecord[] = [];
  for (const raw of uniqueNonEmpty(r.definitions ?? [])) {
    const definition = repairDefinition(raw, notes);
    if (definition === '') continue;
    const target = crossReferenceTarget(definition);
    if (target !== null && target !== form) {
      crossReferences.push({ target, text: definition });
      continue;
    }
    const split = splitMergedExamples(definition);
    if (split.examples.length > 0) notes.push(split.definition === '' ? 'definition that is only an example moved to the examples' : 'examples split out of the definition text');
    if (split.definition !== '') senses.push(split.definition);
    for (const e of split.examples) examples.push({ text: e.text, translation: e.translation, reference: null, sourceId });
  }
  for (const e of r.examples ?? []) {
    const text = restoreLostSpaces(normalise(e.igbo ?? ''));
    if (text === '') {
      notes.push('example without Igbo text left out');
      continue;
    }
    const translation = normalise(decodeEntities(e.english ?? ''));
    examples.push({ text, translation: translation === '' ? null : translation, reference: null, sourceId });
  }
  const kept = examples.filter((e) => namesTheWord(e, form, r.stems ?? [], senses));
  if (kept.length < examples.length) notes.push('example that names neither the headword nor its meaning left out');
  examples.splice(0, examples.length, ...kept);
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
    let previous: [string, unknown] | undefined;
    for (const next of readJsonRecordLists(into.file)) {
      if (previous) into.lexicon(importIgboRecord(...joinSplitDefinition(previous, next), source));
      previous = next;
    }
    if (previous) into.lexicon(importIgboRecord(...previous, source));
  },
});

/**
 * A definition the parser cut at a record boundary ("dàalụ nù": "a form of greeting (to more than one person in the
 * same", then "dàalụkwọ nù": "place); I greet you all"): the rest is moved up from the next record, which keeps what
 * follows it. Changes `next` in place; returns `previous`, joined where it was cut.
 */
function joinSplitDefinition(previous: [string, unknown], next: [string, unknown]): [string, unknown] {
  const a = RawIgboRecordSchema.safeParse(previous[1]);
  const b = RawIgboRecordSchema.safeParse(next[1]);
  const last = a.success ? a.data.definitions?.at(-1) : undefined;
  const first = b.success ? b.data.definitions?.[0] : undefined;
  if (!a.success || !b.success || last === undefined || first === undefined) return previous;
  const joined = joinAcrossRecords(last, first);
  if (!joined) return previous;
  const rest = b.data.definitions ?? [];
  next[1] = { ...b.data, definitions: joined.remainder === '' ? rest.slice(1) : [joined.remainder, ...rest.slice(1)], joinedUp: true };
  return [previous[0], { ...a.data, definitions: [...(a.data.definitions ?? []).slice(0, -1), joined.joined], joinedDown: true }];
}
