// The cost of the inflection analysis alone (snapshot/reader/inflected.ts): each of the 1,000 most frequent word forms
// of every NTREX-128 text read by every analysing language (no language filter, the widest case), three passes, with
// the stored key filters as the search uses them.
// `node --import tsx scripts/bench/inflection-cost.ts [--snapshot FILE] [--corpora DIR]`
import path from 'node:path';
import { parseArgs } from 'node:util';

import Database from 'better-sqlite3';

import { FORMS_FILTER, loadKeyFilters } from '../../snapshot/format/stored-filters.ts';
import { fold, normalise } from '../../snapshot/format/text.ts';
import { FormLookups } from '../../snapshot/reader/form-lookups.ts';
import { InflectedForms } from '../../snapshot/reader/inflected.ts';
import { SummaryStore } from '../../snapshot/reader/summaries.ts';
import { NTREX_FILES, frequentForms, ntrexFile } from '../content/running-text.ts';

const { values } = parseArgs({
  options: { snapshot: { type: 'string', default: '.tmp/test-snapshot.sqlite' }, corpora: { type: 'string', default: '../shared/corpora' } },
});
const file = path.resolve(values.snapshot);
const db = new Database(file, { readonly: true, fileMustExist: true });
const inflected = new InflectedForms(new FormLookups(db, loadKeyFilters(file).get(FORMS_FILTER)), new SummaryStore(db));
const words = Object.keys(NTREX_FILES).flatMap((l) => frequentForms(ntrexFile(path.resolve(values.corpora), l), l, 1000).map((f) => f.form));
const times: number[] = [];
for (let pass = 0; pass < 3; pass++) {
  for (const w of words) {
    const text = normalise(w);
    const start = process.hrtime.bigint();
    inflected.find(text, fold(text), {});
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
}
times.sort((a, b) => a - b);
const p = (q: number): string => times[Math.floor(q * (times.length - 1))].toFixed(3);
db.close();
process.stdout.write(`${times.length} finds without a language filter: p50 ${p(0.5)} ms, p90 ${p(0.9)} ms, p99 ${p(0.99)} ms, max ${p(1)} ms\n`);
