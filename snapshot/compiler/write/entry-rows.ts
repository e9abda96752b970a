// One entry's rows: merge its records, assemble and validate the Entry, and derive its search keys.
import type Database from 'better-sqlite3';

import { FORM_KIND, languageTag, partOfSpeechTag } from '../../format/format.ts';
import type { Entry } from '../../../services/shared/schemas.ts';
import { EntrySchema } from '../../../services/shared/schemas.ts';
import { fold, glossStartKeys, senseKeyParts } from '../../format/text.ts';
import { hasToneMarks } from '../written-forms.ts';
import { languageRules } from '../../languages/index.ts';
import { MAX_LISTED_INFLECTIONS, assembleEntry, mergeRecords, summaryOf } from '../assemble.ts';
import type { AssembleContext, LinkTarget } from '../assemble.ts';
import { fitForClassroom } from '../classroom.ts';
import { isCommonRank } from '../frequency.ts';
import type { ExampleRecord, FormRecord, LexRecord, VariantRecord } from '../records.ts';
import type { EntryFacts } from './facts.ts';

/** Senses whose parts become whole-gloss keys; later senses are rarer meanings. */
const MAX_GLOSS_KEY_SENSES = 3;

export class EntryValidationError extends Error {
  override readonly name = 'EntryValidationError';
}

/** The language's loose key of a folded form (LanguageRules.looseKey), where it has one that differs. */
export function looseKeyFor(language: string, folded: string): string | null {
  const loose = languageRules(language).looseKey?.(folded);
  return loose === undefined || loose === folded ? null : loose;
}

/** Everything the writer stores for one entry. */
export interface EntryRows {
  facts: EntryFacts;
  slug: string;
  folded: string;
  summary: string;
  /** The entry's JSON as UTF-8: a view of its batch's buffer (packBodies). */
  body: Uint8Array;
  forms: [key: string, kind: number][];
  head: string;
  vars: string;
  tags: string;
  gloss: string | null;
  /** Folded keys of the entry's other forms (other_forms; snapshot/format/form-blocks.ts). */
  otherForms: string[];
  /** The lexicon source the entry names (its downloads file, with the language). */
  source: string;
  /** Other sources whose records or examples the entry carries (credited by its downloads file). */
  contributors: string[];
}

/** An entry's rows as the step assembles them, the body still text. */
export type AssembledRows = Omit<EntryRows, 'body'> & { body: string };

/**
 * A batch's bodies encoded into one buffer, each row's body a view of it. The writer hashes each body, stores
 * it and writes it to the downloads, all as UTF-8: encoded once here, on the worker thread, instead of three
 * times on the writer's, whose thread is the 1M-entry build's critical path (npm run bench, build scaling).
 * A worker hands the one buffer over without a copy (transferred, not cloned).
 */
export function packBodies(rows: readonly AssembledRows[]): { rows: EntryRows[]; buffer: ArrayBuffer } {
  let total = 0;
  for (const r of rows) total += Buffer.byteLength(r.body);
  // A buffer of its own (never a view of Node's shared pool), so that it can be transferred whole.
  const bytes = Buffer.allocUnsafeSlow(total);
  let at = 0;
  const packed = rows.map((r): EntryRows => {
    const end = at + bytes.write(r.body, at);
    const body = bytes.subarray(at, end);
    at = end;
    return { ...r, body };
  });
  return { rows: packed, buffer: bytes.buffer };
}

/** Serializable inputs of the entry step (sent to worker threads). */
export interface EntryContextData {
  stagePath: string;
  languageNames: [string, string][];
  sources: [string, ReturnType<AssembleContext['source']>][];
  /** Frequency rank by entry key (snapshot/compiler/frequency.ts). */
  ranks: [entryKey: string, rank: number][];
  treebankExamples: [string, ExampleRecord[]][];
  keysWithVariants: string[];
}

/** Sources other than the entry's own that gave it data: merged records of another source, example sentences. */
function contributorsOf(entry: Entry, records: readonly LexRecord[]): string[] {
  const ids = new Set<string>();
  for (const r of records) ids.add(r.sourceId);
  for (const e of entry.examples) ids.add(e.source.id);
  for (const t of entry.inflections ?? []) ids.add(t.source.id);
  ids.delete(entry.source.id);
  return [...ids];
}

export interface StageRow {
  key: string;
  id: number;
  slug: string;
  globalRank: number;
}

/** Builds the entry step over a (read-only) connection to the staging file. */
export function createEntryStep(stage: Database.Database, data: EntryContextData): (row: StageRow) => AssembledRows {
  const assemble = entryAssembler(stage, data);
  return (row) => {
    const { entry, records, folded } = assemble(row);
    return entryRows(row, entry, records, folded);
  };
}

interface AssembledEntry {
  entry: Entry;
  /** The staged records merged into it. */
  records: LexRecord[];
  /** Its folded form. */
  folded: string;
}

/** Merges an entry's staged records with what attaches to it, and assembles and validates its Entry. */
function entryAssembler(stage: Database.Database, data: EntryContextData): (row: StageRow) => AssembledEntry {
  const recordsOf = stage.prepare<[string], { data: string }>('SELECT data FROM lex WHERE key = ? ORDER BY seq');
  const variantsOf = stage.prepare<[string], { form: string; kind: VariantRecord['kind'] | 'plural'; note: string | null }>(
    'SELECT form, kind, note FROM variant WHERE target_key = ?',
  );
  const pronunciationsOf = stage.prepare<[string], { ipa: string; sourceId: string }>(
    'SELECT ipa, source_id AS sourceId FROM entry_pron WHERE entry_key = ? ORDER BY rank',
  );
  const tablesOf = stage.prepare<[string], { sourceId: string; total: number }>(
    'SELECT source_id AS sourceId, count(*) AS total FROM entry_table_form WHERE entry_key = ? GROUP BY source_id ORDER BY min(seq)',
  );
  const tableFormsOf = stage.prepare<[string, string], { form: string; features: string }>(
    `SELECT form, features FROM entry_table_form WHERE entry_key = ? AND source_id = ? ORDER BY seq LIMIT ${MAX_LISTED_INFLECTIONS}`,
  );
  const resolverFor = linkResolver(stage);
  const languageNames = new Map(data.languageNames);
  const sources = new Map(data.sources);
  const ranks = new Map(data.ranks);
  const treebank = new Map(data.treebankExamples);
  const keysWithVariants = new Set(data.keysWithVariants);
  const source: AssembleContext['source'] = (id) => {
    const info = sources.get(id);
    if (!info) throw new EntryValidationError(`record names unknown source ${id}`);
    return info;
  };
  return (row) => {
    const records = recordsOf.all(row.key).map((r) => JSON.parse(r.data) as LexRecord);
    const record = mergeRecords(records);
    const folded = fold(record.exactForm);
    const rank = ranks.get(row.key) ?? null;
    const linked = keysWithVariants.has(row.key) ? variantsOf.all(row.key) : [];
    const extraVariants: VariantRecord[] = [];
    const extraForms: FormRecord[] = [];
    for (const v of linked) {
      if (v.kind === 'plural') extraForms.push({ form: v.form, kind: 'plural' });
      else extraVariants.push({ form: v.form, kind: v.kind, ...(v.note === null ? {} : { note: v.note }) });
    }
    const entry: Entry = assembleEntry(record, {
      id: row.id,
      slug: row.slug,
      languageName: languageNames.get(record.language) ?? record.language,
      frequencyRank: rank,
      isCommon: isCommonRank(rank),
      extraVariants,
      extraForms,
      inflections: tablesOf.all(row.key).map((t) => ({ ...t, forms: tableFormsOf.all(row.key, t.sourceId) })),
      pronunciations: pronunciationsOf.all(row.key),
      extraExamples: treebank.get(row.key) ?? [],
      resolve: resolverFor(record.language),
      source,
    });
    const checked = EntrySchema.safeParse(entry);
    if (!checked.success) throw new EntryValidationError(`entry ${record.exactForm} (${row.key}): ${checked.error.message}`);
    return { entry, records, folded };
  };
}

/** How a form named by an entry (a cross-reference, a derived form) finds the entry it names, per language. */
function linkResolver(stage: Database.Database): (language: string) => (form: string) => LinkTarget | null {
  const byExact = stage.prepare<[string, string], LinkTarget>('SELECT id, slug FROM entry WHERE language = ? AND exact_form = ? ORDER BY global_rank LIMIT 1');
  const byLower = stage.prepare<[string, string], LinkTarget>('SELECT id, slug FROM entry WHERE language = ? AND exact_lower = ? ORDER BY global_rank LIMIT 1');
  const byFolded = stage.prepare<[string, string], LinkTarget>('SELECT id, slug FROM entry WHERE language = ? AND folded = ? ORDER BY global_rank LIMIT 2');
  return (language) => (form) => {
    const exact = byExact.get(language, form) ?? byLower.get(language, form.toLowerCase());
    if (exact) return exact;
    const folded = byFolded.all(language, fold(form));
    return folded.length === 1 ? folded[0] : null; // a folded match counts only when it is unambiguous
  };
}

/**
 * The key of a query written as the entry's form: lower case, without the leading hyphen of a verb root (-bụ is
 * typed bụ); none for an untoned form of a language whose text is written without tones (LanguageRules.textWritesTones).
 */
function exactKey(entry: Entry): string | null {
  if (languageRules(entry.language).textWritesTones === false && !hasToneMarks(entry.exactForm)) return null;
  return entry.exactForm.toLowerCase().replace(/^-+\s*/, '');
}

/** The keys an entry is found by in the forms table, and its variants' keys (the head index's `vars`). */
function searchKeys(entry: Entry, folded: string): { forms: [string, number][]; variantKeys: Set<string>; loose: string | null } {
  const loose = looseKeyFor(entry.language, folded);
  const variantKeys = new Set<string>();
  for (const v of entry.variants) {
    const f = fold(v.form);
    variantKeys.add(f);
    const l = looseKeyFor(entry.language, f);
    if (l) variantKeys.add(l);
  }
  if (loose) variantKeys.add(loose);
  variantKeys.delete(folded);
  const exact = exactKey(entry);
  const writesTones = languageRules(entry.language).textWritesTones !== false;
  const forms: [string, number][] = [
    ...(exact === null ? [] : [[exact, FORM_KIND.exact] as [string, number]]),
    // A variant is a spelling of the word (one the source lists, or a Standard spelling as Standard text writes it):
    // a query written so is written as the word is; an untoned one of a language whose text is written without tones
    // only when it is that text's spelling (see exactKey).
    ...entry.variants.filter((v) => v.kind === 'standard-spelling' || writesTones || hasToneMarks(v.form)).map((v): [string, number] => [v.form.toLowerCase(), FORM_KIND.exact]),
    [folded, FORM_KIND.folded],
    ...[...variantKeys].map((k): [string, number] => [k, FORM_KIND.variant]),
  ];
  entry.senses.slice(0, MAX_GLOSS_KEY_SENSES).forEach((sense, i) => {
    // The first sense of the first definition, stated plainly, is the entry's meaning; any other is one of its senses.
    senseKeyParts(sense.definition).forEach(({ key, plain }, j) => forms.push([key, i === 0 && j === 0 && plain ? FORM_KIND.gloss : FORM_KIND.glossSense]));
    for (const key of glossStartKeys(sense.definition)) forms.push([key, FORM_KIND.glossStart]);
  });
  return { forms, variantKeys, loose };
}

/** Everything the writer stores for a validated entry. */
function entryRows(row: StageRow, entry: Entry, records: readonly LexRecord[], folded: string): AssembledRows {
  const { forms, variantKeys, loose } = searchKeys(entry, folded);
  // Other forms lead to the entry unless they fold like its headword or a variant (found so already).
  const otherForms = new Set<string>();
  for (const f of entry.forms) {
    const key = fold(f.form);
    if (key !== '' && key !== folded && !variantKeys.has(key)) otherForms.add(key);
  }
  return {
    facts: {
      globalRank: row.globalRank,
      id: row.id,
      language: entry.language,
      partOfSpeech: entry.partOfSpeech,
      isCommon: entry.isCommon,
      frequencyRank: entry.frequencyRank,
      glossCount: entry.glosses.length,
      exampleCount: entry.examples.length,
      pronunciationCount: entry.pronunciations.length,
      classroomFit: fitForClassroom(entry),
    },
    slug: row.slug,
    folded,
    // The summary is a projection of the validated entry onto WordSummary's fields: valid by construction.
    summary: JSON.stringify(summaryOf(entry)),
    body: JSON.stringify(entry),
    forms,
    head: loose ? `${folded} ${loose}` : folded,
    vars: [...variantKeys].join(' '),
    tags: `${languageTag(entry.language)} ${partOfSpeechTag(entry.partOfSpeech)}`,
    gloss: entry.senses.length > 0 ? entry.senses.map((s) => s.definition).join(' ; ') : null,
    otherForms: [...otherForms],
    source: entry.source.id,
    contributors: contributorsOf(entry, records),
  };
}
