// Prints the everyday-words rates of a snapshot per language, and every failing word.
// `node --import tsx scripts/content/measure-everyday-words.ts [--snapshot FILE] [--failures]`
import path from 'node:path';
import { parseArgs } from 'node:util';

import { openSnapshot } from '../../snapshot/reader/reader.ts';
import { evaluate, failures, loadFixtures, rateTable } from './everyday-words.ts';

const { values } = parseArgs({
  options: { snapshot: { type: 'string', default: '.tmp/test-snapshot.sqlite' }, failures: { type: 'boolean', default: false } },
});
const snapshot = openSnapshot(path.resolve(values.snapshot));
try {
  const results = loadFixtures().map((f) => evaluate(snapshot, f));
  process.stdout.write(`snapshot ${snapshot.meta.version}\n\n${rateTable(results)}\n`);
  if (values.failures) process.stdout.write(`\n${failures(results)}\n`);
} finally {
  snapshot.close();
}
