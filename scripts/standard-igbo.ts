// Prints the Standard Igbo measures of docs/standard-igbo.md: of the 500 most frequent words of the NTREX-128
// Igbo text, how many find an Igbo entry with and without the derived Standard spellings, and a sample of the
// derived spellings to read for precision. `tsx scripts/standard-igbo.ts [--snapshot FILE] [--sample N] [--seed S]`
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { locateCorpora } from '../snapshot/compiler/inputs.ts';
import { loadManifests } from '../snapshot/compiler/manifest.ts';
import { standardWordCounts } from '../snapshot/compiler/standard-spellings.ts';
import { fold } from '../snapshot/format/text.ts';
import { igbo } from '../snapshot/languages/ig.ts';
import { openSnapshot } from '../snapshot/reader/reader.ts';

const STANDARD_IGBO_LANGUAGE = 'ig';
const looseKey = (folded: string): string => igbo.looseKey?.(folded) ?? folded;

const { values } = parseArgs({
  options: { snapshot: { type: 'string', default: '.tmp/test-snapshot.sqlite' }, sample: { type: 'string', default: '40' }, seed: { type: 'string', default: '28' }, top: { type: 'string', default: '500' } },
});
const location = locateCorpora(undefined, undefined);
const { sources } = loadManifests(location.sourcesFile, location.languagesFile);
const text = sources.find((s) => s.language === STANDARD_IGBO_LANGUAGE && s.importer === 'ntrex-lines');
if (!text) throw new Error('no ntrex-lines source for Igbo in the manifest');
const lines = readFileSync(path.join(location.dir, text.file), 'utf8').split('\n');
const counts = standardWordCounts(lines);
const top = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, Number(values.top));
const snapshot = openSnapshot(path.resolve(values.snapshot));
const HEADWORD_MATCHES = new Set(['exact', 'folded', 'variant', 'form']);

/** Whether a result reached the entry only through one of its Standard spellings. */
function onlyStandard(q: string, slug: string): boolean {
  const entry = snapshot.entry(slug);
  if (!entry) return false;
  const key = fold(q);
  const otherKeys = new Set([fold(entry.exactForm), looseKey(fold(entry.exactForm)), ...entry.variants.filter((v) => v.kind !== 'standard-spelling').flatMap((v) => [fold(v.form), looseKey(fold(v.form))]), ...entry.forms.map((f) => fold(f.form))]);
  return !otherKeys.has(key) && !otherKeys.has(looseKey(key));
}

let before = 0;
let after = 0;
const gained: string[] = [];
for (const [word, n] of top) {
  const hits = snapshot.search({ q: word, language: STANDARD_IGBO_LANGUAGE, page: 1, limit: 10 }).items.filter((i) => HEADWORD_MATCHES.has(i.matchType));
  if (hits.length === 0) continue;
  after += 1;
  if (hits.some((h) => !onlyStandard(word, h.slug))) before += 1;
  else gained.push(`${word} (${n}) → ${hits[0].exactForm}: ${hits[0].glosses.slice(0, 2).join('; ')}`);
}
process.stdout.write(`snapshot ${snapshot.meta.version}; ${text.name}: ${counts.size} distinct words\n`);
process.stdout.write(`of the ${top.length} most frequent words, find an Igbo entry: ${before} without Standard spellings, ${after} with them\n`);
process.stdout.write(`\nfound only through a Standard spelling (${gained.length}):\n${gained.map((g) => `  ${g}`).join('\n')}\n`);

// A seeded sample of every derived spelling in the snapshot, to read: is the Standard word the entry's word?
const derived: string[] = [];
for (const language of snapshot.languages().filter((l) => l.code === STANDARD_IGBO_LANGUAGE && l.status === 'active')) {
  for (let page = 1; ; page++) {
    const items = snapshot.search({ language: language.code, page, limit: 100 }).items;
    for (const item of items) {
      const entry = snapshot.entry(item.slug);
      for (const v of entry?.variants ?? []) if (v.kind === 'standard-spelling') derived.push(`${v.form} ← ${item.exactForm} (${item.glosses.slice(0, 2).join('; ')}) [${v.note ?? ''}]`);
    }
    if (items.length < 100) break;
  }
}
let state = Number(values.seed) >>> 0 || 1;
const random = (): number => {
  state ^= state << 13;
  state >>>= 0;
  state ^= state >>> 17;
  state ^= state << 5;
  state >>>= 0;
  return state / 0x1_0000_0000;
};
const sample = [...derived].map((d) => [random(), d] as const).sort((a, b) => a[0] - b[0]).slice(0, Number(values.sample)).map(([, d]) => d);
process.stdout.write(`\n${derived.length} derived Standard spellings; a sample of ${sample.length} (seed ${values.seed}) to read:\n${sample.map((s, i) => `  ${i + 1}. ${s}`).join('\n')}\n`);
snapshot.close();
