// Draws the seeded reading sample of forms found by inflection analysis (matchType `inflected` first), per language,
// as markdown rows to read and give a verdict (docs/inflection.md): the form, how it was read, the entry it led to.
// Word forms come from each language's NTREX-128 text. The corpora hold no Xhosa or Afrikaans text: their samples are
// drawn from the forms their Wiktionary entries list (inflection tables, plurals), read by the analysis alone as if
// the list were not stored, each beside the entry that lists it; the share of all such forms whose reading leads to
// the entry that lists them is printed too.
// `node --import tsx scripts/content/inflection-sample.ts [--snapshot FILE] [--corpora DIR] [--seed N] [--size N] [--languages sw,zu,…]`
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

import Database from 'better-sqlite3';

import type { Entry } from '../../services/shared/schemas.ts';
import { fold, normalise } from '../../snapshot/format/text.ts';
import { FormLookups } from '../../snapshot/reader/form-lookups.ts';
import { InflectedForms, readingOf } from '../../snapshot/reader/inflected.ts';
import { SummaryStore } from '../../snapshot/reader/summaries.ts';
import { openSnapshot } from '../../snapshot/reader/reader.ts';
import type { Snapshot } from '../../snapshot/reader/snapshot.ts';
import { NTREX_FILES, ntrexFile, wordsOf } from './running-text.ts';
import { seededOrder } from './seeded.ts';

const { values } = parseArgs({
  options: {
    snapshot: { type: 'string', default: '.tmp/test-snapshot.sqlite' },
    corpora: { type: 'string', default: '../shared/corpora' },
    seed: { type: 'string', default: '43' },
    size: { type: 'string', default: '50' },
    languages: { type: 'string', default: 'sw,zu,xh,ig,af,yo' },
  },
});

function wordForms(corpora: string, language: string): string[] {
  const forms = new Set<string>();
  for (const line of readFileSync(ntrexFile(corpora, language), 'utf8').split('\n')) for (const w of wordsOf(line, language)) forms.add(w);
  return [...forms];
}

function textSample(snapshot: Snapshot, corpora: string, language: string, seed: number, size: number): string[] {
  const found: { form: string; row: string }[] = [];
  for (const form of wordForms(corpora, language)) {
    const [first] = snapshot.search({ q: form, language, scope: 'headword', page: 1, limit: 1 }).items;
    if (first?.matchType !== 'inflected') continue;
    const reading = readingOf(language, form, fold(form), fold(first.exactForm).replace(/^-/, ''), first.partOfSpeech)?.reading ?? '';
    found.push({ form, row: `| ${form} | ${reading} | ${first.headword} (${first.partOfSpeech}): ${first.glosses.slice(0, 2).join('; ').slice(0, 80)} |` });
  }
  const rows = seededOrder(found, (f) => f.form, seed).slice(0, size);
  return [`### ${language}: ${rows.length} of ${found.length} forms found first by analysis`, '', '| form | reading | entry | verdict |', '|---|---|---|---|', ...rows.map((r) => `${r.row.slice(0, -2)} |  |`), ''];
}

/** The forms a language's entries list (kind `form`), each with the headword that lists it, one row per form. */
function listedForms(db: Database.Database, language: string): { form: string; listedUnder: string; id: number }[] {
  const rows = db.prepare(`SELECT body FROM entry_json JOIN entries USING (global_rank) WHERE language = ?`).pluck().all(language) as string[];
  const out = new Map<string, { form: string; listedUnder: string; id: number }>();
  for (const row of rows) {
    const entry = JSON.parse(row) as Entry;
    for (const f of entry.forms) if (f.kind === 'form' && !out.has(f.form)) out.set(f.form, { form: f.form, listedUnder: entry.headword, id: entry.id });
  }
  return [...out.values()];
}

function listedSample(snapshot: Snapshot, db: Database.Database, language: string, seed: number, size: number): string[] {
  const inflected = new InflectedForms(new FormLookups(db), new SummaryStore(db));
  const found: { form: string; row: string; agrees: boolean }[] = [];
  for (const { form, listedUnder, id } of listedForms(db, language)) {
    const text = normalise(form);
    const ranks = inflected.find(text, fold(text), { language });
    if (ranks.length === 0) continue;
    const entries = ranks.map((r) => summaryAt(db, r));
    const first = entries[0];
    const reading = readingOf(language, text.toLowerCase(), fold(text), fold(first.exactForm).replace(/^-/, ''), first.partOfSpeech)?.reading ?? '';
    found.push({ form, agrees: entries.some((e) => e.id === id), row: `| ${form} | ${reading} | ${first.headword} (${first.partOfSpeech}): ${first.glosses.slice(0, 2).join('; ').slice(0, 70)} | ${listedUnder} |` });
  }
  const agreeing = found.filter((f) => f.agrees).length;
  const rows = seededOrder(found, (f) => f.form, seed).slice(0, size);
  return [
    `### ${language}: ${rows.length} of ${found.length} listed forms that the analysis reads; ${agreeing} of them (${((100 * agreeing) / Math.max(1, found.length)).toFixed(1)} %) lead to the entry that lists them`,
    '',
    '| form | reading | entry | listed under | verdict |',
    '|---|---|---|---|---|',
    ...rows.map((r) => `${r.row}  |`),
    '',
  ];
}

function summaryAt(db: Database.Database, globalRank: number): Entry {
  return JSON.parse(db.prepare('SELECT body FROM entry_json WHERE global_rank = ?').pluck().get(globalRank) as string) as Entry;
}

const snapshot = openSnapshot(path.resolve(values.snapshot));
const db = new Database(path.resolve(values.snapshot), { readonly: true, fileMustExist: true });
try {
  const out = values.languages.split(',').flatMap((l) =>
    NTREX_FILES[l] ? textSample(snapshot, path.resolve(values.corpora), l, Number(values.seed), Number(values.size)) : listedSample(snapshot, db, l, Number(values.seed), Number(values.size)),
  );
  process.stdout.write(`snapshot ${snapshot.meta.version}, seed ${values.seed}\n\n${out.join('\n')}\n`);
} finally {
  db.close();
  snapshot.close();
}
