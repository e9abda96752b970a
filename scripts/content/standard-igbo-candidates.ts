// The candidates of the 100 commonest Standard Igbo words (test/fixtures/standard-igbo-common.json): the words of the
// NTREX-128 Igbo text that the Unicode Unilex Igbo list also holds, in Unilex order (tones and underdots folded as
// the list writes none), with both counts. The fixture keeps the first 100 that are Igbo words (names and English
// words left out), each with the Onitsha entry that is the word, or why the lexicon lacks it: that part is read.
// `node --import tsx scripts/content/standard-igbo-candidates.ts [--corpora DIR] [--top N]`
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { fold, normalise } from '../../snapshot/format/text.ts';
import { locateCorpora } from '../../snapshot/compiler/inputs.ts';

const { values } = parseArgs({ options: { corpora: { type: 'string' }, top: { type: 'string', default: '150' } } });
const dir = locateCorpora(values.corpora, process.env.CORPORA_DIR).dir;

// Words as the text writes them (lower case, NFC), with how often; the first spelling seen of each folded word.
const written = new Map<string, number>();
for (const line of readFileSync(path.join(dir, 'ntrex-128', 'newstest2019-ref.ibo.txt'), 'utf8').split('\n')) {
  for (const word of normalise(line).toLowerCase().match(/[\p{L}\p{M}]+(?:['’][\p{L}\p{M}]+)*/gu) ?? []) written.set(word, (written.get(word) ?? 0) + 1);
}
const unilex = new Map<string, number>();
for (const line of readFileSync(path.join(dir, 'unilex-frequency', 'ig.txt'), 'utf8').split('\n')) {
  const [form, count] = line.split('\t');
  if (count === undefined || !/^\d+$/.test(count)) continue;
  unilex.set(fold(form), (unilex.get(fold(form)) ?? 0) + Number(count));
}
const rows = [...written]
  .filter(([word]) => unilex.has(fold(word)))
  .map(([word, ntrex]) => ({ word, ntrex, unilex: unilex.get(fold(word)) ?? 0 }))
  .sort((a, b) => b.unilex - a.unilex || b.ntrex - a.ntrex);
const seen = new Set<string>();
let shown = 0;
for (const row of rows) {
  // One line per folded word: its commonest spelling in the text.
  if (seen.has(fold(row.word))) continue;
  seen.add(fold(row.word));
  console.log(`${row.word}\tntrex ${row.ntrex}\tunilex ${row.unilex}`);
  if (++shown >= Number(values.top)) break;
}
