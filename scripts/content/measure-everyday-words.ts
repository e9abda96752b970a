// Prints the everyday-words rates of a snapshot per language and the 100 commonest Standard Igbo words found
// first, with every failing word on request.
// `node --import tsx scripts/content/measure-everyday-words.ts [--snapshot FILE] [--failures]`
import path from 'node:path';
import { parseArgs } from 'node:util';

import { openSnapshot } from '../../snapshot/reader/reader.ts';
import { evaluate, failures, loadFixtures, rateTable } from './everyday-words.ts';
import { evaluateCommonWords, loadCommonWords } from './standard-igbo-common.ts';

const { values } = parseArgs({
  options: { snapshot: { type: 'string', default: '.tmp/test-snapshot.sqlite' }, failures: { type: 'boolean', default: false } },
});
const snapshot = openSnapshot(path.resolve(values.snapshot));
try {
  const results = loadFixtures().map((f) => evaluate(snapshot, f));
  process.stdout.write(`snapshot ${snapshot.meta.version}\n\n${rateTable(results)}\n`);
  const common = evaluateCommonWords(snapshot, loadCommonWords());
  process.stdout.write(`\n100 commonest Standard Igbo words: ${common.held} held by the lexicon, ${common.first} find their entry first\n`);
  if (values.failures) process.stdout.write(`\n${failures(results)}\n\n${common.failures.join('\n')}\n`);
} finally {
  snapshot.close();
}
