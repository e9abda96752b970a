// Prints how much of each NTREX-128 language's running text finds an entry: of its most frequent word forms, the
// share that the search finds as a word, any entry at all, and by inflection analysis; with the forms not found on
// request.
// `node --import tsx scripts/content/measure-coverage.ts [--snapshot FILE] [--corpora DIR] [--top N] [--missing]`
import path from 'node:path';
import { parseArgs } from 'node:util';

import { openSnapshot } from '../../snapshot/reader/reader.ts';
import { NTREX_FILES, coverage, frequentForms, ntrexFile } from './running-text.ts';

const { values } = parseArgs({
  options: {
    snapshot: { type: 'string', default: '.tmp/test-snapshot.sqlite' },
    corpora: { type: 'string', default: '../shared/corpora' },
    top: { type: 'string', default: '1000' },
    missing: { type: 'boolean', default: false },
  },
});
const top = Number(values.top);
const snapshot = openSnapshot(path.resolve(values.snapshot));
const percent = (share: number): string => `${(100 * share).toFixed(1)} %`;
try {
  const lines = [`snapshot ${snapshot.meta.version}; the ${top} most frequent word forms of each NTREX-128 text`, '', '| language | found as a word | any entry (prefix too) | by inflection analysis |', '|---|---|---|---|'];
  const missing: string[] = [];
  for (const language of Object.keys(NTREX_FILES)) {
    const result = coverage(snapshot, language, frequentForms(ntrexFile(path.resolve(values.corpora), language), language, top));
    lines.push(`| ${language} | ${percent(result.asWord)} | ${percent(result.any)} | ${percent(result.inflected)} |`);
    const notFound = result.forms.filter((f) => f.matchType === undefined || f.matchType === 'prefix');
    missing.push(`${language} (${notFound.length}): ${notFound.map((f) => `${f.form} ${f.count}`).join(', ')}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  if (values.missing) process.stdout.write(`\nnot found as a word (form, occurrences):\n${missing.join('\n\n')}\n`);
} finally {
  snapshot.close();
}
