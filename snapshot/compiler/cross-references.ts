// Records that only point at another word ("see ǹnwa", "used in …") or define nothing: followed, so that no entry is
// served with an empty or dangling gloss, or rejected with the reason.
import type Database from 'better-sqlite3';

import { fold } from '../format/text.ts';
import type { LexRecord } from './records.ts';
import type { ReportBuilder } from './report.ts';

/** A definition whose target the parser lost: the word is used in compounds it does not name. */
const USED_IN = /^used in$/i;
/** A "see …" whose target reads as English ("see to the end"): the definition of an English verb, not a reference. */
const ENGLISH_TARGET = /\b(?:to|the|a|an|of|through|into|about|after|over)\b/i;
/** Compounds named for a "used in" word: enough to say where it is used. */
const MAX_COMPOUNDS_NAMED = 3;

/** What resolving a name needs of every record of a language: no record body (a language has up to a million). */
interface WordRow {
  seq: number;
  key: string;
  exact_form: string;
  pos: string;
  glossed: number;
}

/** A record that defines nothing or holds a "used in": the only rows whose bodies the step reads. */
interface CandidateRow {
  seq: number;
  key: string;
  source_id: string;
}

/** The lexicon's records of one language, to resolve what a record names. */
class Words {
  private readonly byExact = new Map<string, string[]>();
  private readonly byLower = new Map<string, string[]>();
  private readonly byFolded = new Map<string, string[]>();
  /** Multiword forms by each of their words (folded). */
  private readonly compounds = new Map<string, string[]>();
  readonly glossed = new Set<string>();

  constructor(rows: readonly WordRow[]) {
    const push = (map: Map<string, string[]>, k: string, form: string): void => {
      const list = map.get(k) ?? [];
      if (!list.includes(form)) list.push(form);
      map.set(k, list);
    };
    for (const r of rows) {
      push(this.byExact, r.exact_form, r.key);
      push(this.byLower, r.exact_form.toLowerCase(), r.key);
      push(this.byFolded, fold(r.exact_form), r.key);
      if (r.glossed === 1) this.glossed.add(r.key);
      const words = fold(r.exact_form).split(' ');
      if (words.length > 1) for (const w of new Set(words)) push(this.compounds, w, r.exact_form);
    }
  }

  /** The record key a form names: exact, else case-insensitive, else the only one folded alike (sense numbers stripped). */
  resolve(form: string): string | undefined {
    const clean = form.replace(/\s+\d+(?:\.[A-Z0-9]+)*\.?$/, '').trim();
    const one = (list: string[] | undefined): string | undefined => (list && new Set(list).size === 1 ? list[0] : undefined);
    return one(this.byExact.get(clean)) ?? one(this.byLower.get(clean.toLowerCase())) ?? one(this.byFolded.get(fold(clean)));
  }

  /** The one other glossed record of the part of speech spelt like `record` but for tone marks, if there is one. */
  toneVariantOf(record: LexRecord, key: string, posOf: (key: string) => string | undefined): string | undefined {
    const others = [...new Set(this.byFolded.get(fold(record.exactForm)) ?? [])].filter(
      (k) => k !== key && this.glossed.has(k) && posOf(k) === record.partOfSpeech,
    );
    return others.length === 1 ? others[0] : undefined;
  }

  /** Multiword forms that hold the word. */
  compoundsWith(form: string): string[] {
    return this.compounds.get(fold(form)) ?? [];
  }
}

/**
 * For each language with records that define nothing: a record whose only definitions are "see X" becomes a variant
 * of X (nwa → ǹnwa), merged; a "used in" with its target lost names the compounds the lexicon holds with the word
 * (linked), or is dropped; a record left without a definition is merged as a variant of the one entry of its part
 * of speech that differs from it only in tone marks (its examples move there), or rejected with the reason.
 */
export function followCrossReferences(db: Database.Database, report: ReportBuilder): void {
  const languages = db.prepare(`SELECT DISTINCT language FROM stage.lex WHERE ${CANDIDATE}`).pluck().all() as string[];
  // Only names, parts of speech and the glossed flag of every record: their bodies, read for all of a language at
  // once, were most of the 1M-entry build's peak memory (the bench's build scaling).
  const wordsOf = db.prepare<[string], WordRow>('SELECT seq, key, exact_form, pos, glossed FROM stage.lex WHERE language = ? ORDER BY seq');
  const candidatesOf = db.prepare<[string], CandidateRow>(`SELECT seq, key, source_id FROM stage.lex WHERE language = ? AND (${CANDIDATE}) ORDER BY seq`);
  const dataOf = db.prepare<[number], string>('SELECT data FROM stage.lex WHERE seq = ?').pluck();
  const update = db.prepare('UPDATE stage.lex SET data = ?, glossed = ? WHERE seq = ?');
  const remove = db.prepare('DELETE FROM stage.lex WHERE seq = ?');
  const variant = db.prepare("INSERT INTO stage.variant (target_key, form, kind) VALUES (?, ?, 'variant')");
  db.transaction(() => {
    for (const language of languages) {
      const rows = wordsOf.all(language);
      const words = new Words(rows);
      const byKey = new Map(rows.map((r) => [r.key, r]));
      const bodies = new RecordBodies((seq) => dataOf.get(seq));
      for (const row of candidatesOf.all(language)) {
        const record = JSON.parse(bodies.get(row.seq) ?? 'null') as LexRecord | null;
        if (record === null) continue;
        if (record.senses.length > 0 ? !record.senses.some((s) => USED_IN.test(s)) : words.glossed.has(row.key)) continue;
        const outcome = follow(record, row.key, words, (k) => byKey.get(k)?.pos);
        if (outcome.kind === 'kept') {
          if (outcome.record !== record) {
            bodies.keepAsRead(row.seq);
            update.run(JSON.stringify(outcome.record), outcome.record.senses.length > 0 ? 1 : 0, row.seq);
          }
          continue;
        }
        remove.run(row.seq);
        if (outcome.kind === 'rejected') {
          report.rejected(row.source_id, outcome.reason);
          continue;
        }
        variant.run(outcome.target, record.exactForm);
        const target = byKey.get(outcome.target);
        const targetBody = target && record.examples.length > 0 ? bodies.get(target.seq) : undefined;
        if (target && targetBody !== undefined) {
          const data = JSON.parse(targetBody) as LexRecord;
          data.examples.push(...record.examples);
          bodies.set(target.seq, JSON.stringify(data));
          update.run(bodies.get(target.seq), data.senses.length > 0 ? 1 : 0, target.seq);
        }
        report.merged(row.source_id, outcome.reason);
      }
    }
  })();
}

/** The rows the step reads a body of: defining nothing, or a sense that may be "used in" (checked on the record). */
const CANDIDATE = `glossed = 0 OR data LIKE '%"used in"%'`;

/**
 * Record bodies as the step sees them while it walks a language: each as first read, and a merge target's with the
 * examples merged into it. A record the step itself rewrites ("used in" named) is still seen as first read by a later
 * merge into it, which writes the merged body over the rewrite.
 */
class RecordBodies {
  private readonly seen = new Map<number, string>();

  constructor(private readonly read: (seq: number) => string | undefined) {}

  get(seq: number): string | undefined {
    return this.seen.get(seq) ?? this.read(seq);
  }

  set(seq: number, body: string): void {
    this.seen.set(seq, body);
  }

  /** Holds the body as read before the row is rewritten. */
  keepAsRead(seq: number): void {
    const body = this.get(seq);
    if (body !== undefined) this.seen.set(seq, body);
  }
}

type Followed = { kind: 'kept'; record: LexRecord } | { kind: 'merged'; target: string; reason: string } | { kind: 'rejected'; reason: string };

/** What becomes of one record that points elsewhere or defines nothing (see followCrossReferences). */
function follow(record: LexRecord, key: string, words: Words, posOf: (key: string) => string | undefined): Followed {
  let senses = record.senses;
  const crossReferences = [...record.crossReferences];
  if (senses.some((s) => USED_IN.test(s))) {
    const compounds = words.compoundsWith(record.exactForm).filter((c) => c !== record.exactForm).slice(0, MAX_COMPOUNDS_NAMED);
    senses = senses.flatMap((s) => (USED_IN.test(s) ? (compounds.length > 0 ? [`used in ${compounds.join(', ')}`] : []) : [s]));
    for (const c of compounds) if (!crossReferences.some((x) => x.target === c)) crossReferences.push({ target: c, text: `used in ${c}` });
  }
  if (senses.length > 0) return { kind: 'kept', record: senses === record.senses ? record : { ...record, senses, crossReferences } };
  for (const ref of crossReferences) {
    const target = words.resolve(ref.target);
    if (target !== undefined && words.glossed.has(target)) return { kind: 'merged', target, reason: 'only a cross-reference ("see X"): merged into X as its variant' };
  }
  // "see to the end" is the English verb, not a cross-reference: its text is the definition.
  const english = crossReferences.filter((ref) => ENGLISH_TARGET.test(ref.target) && !/[\u0300-\u036f]/.test(ref.target.normalize('NFD')));
  if (english.length > 0) return { kind: 'kept', record: { ...record, senses: english.map((ref) => ref.text), crossReferences: crossReferences.filter((c) => !english.includes(c)) } };
  if (crossReferences.length > 0) return { kind: 'rejected', reason: 'only a cross-reference, to a word that is not an entry with a definition' };
  const sameWord = words.toneVariantOf(record, key, posOf);
  if (sameWord !== undefined) return { kind: 'merged', target: sameWord, reason: 'no definition: a tone variant of the one entry spelt alike, merged as its variant' };
  return { kind: 'rejected', reason: record.examples.length > 0 ? 'no definition (examples only)' : 'no definition left: "used in" names no compound of the lexicon' };
}
