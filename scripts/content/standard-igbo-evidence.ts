// What the Standard text says of a Standard Igbo word's homographs: for each Igbo entry written with the word's letters
// (folded), its frequency rank and the NTREX-128 evidence the build weighs (snapshot/compiler/aligned-text.ts): of the
// sentences that write the word, how many English lines hold the entry's meaning, how many would by chance, and
// whether that shows the reading. Without words, the held words of test/fixtures/standard-igbo-common.json that do
// not find their entry first.
// `node --import tsx scripts/content/standard-igbo-evidence.ts [--snapshot FILE] [--corpora DIR] [WORD ...]`
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { AlignedText } from '../../snapshot/compiler/aligned-text.ts';
import { meaningsOf } from '../../snapshot/compiler/english-meaning.ts';
import { locateCorpora } from '../../snapshot/compiler/inputs.ts';
import { fold, normalise } from '../../snapshot/format/text.ts';
import { openSnapshot } from '../../snapshot/reader/reader.ts';
import { STANDARD_IGBO_LANGUAGE, evaluateCommonWords, loadCommonWords } from './standard-igbo-common.ts';

const { values, positionals } = parseArgs({
  options: { snapshot: { type: 'string', default: '.tmp/test-snapshot.sqlite' }, corpora: { type: 'string' } },
  allowPositionals: true,
});
const dir = locateCorpora(values.corpora, process.env.CORPORA_DIR).dir;
const lines = (file: string): string[] => readFileSync(path.join(dir, 'ntrex-128', file), 'utf8').split('\n');
const english = lines('newstest2019-src.eng.txt');
const text = new AlignedText(
  lines('newstest2019-ref.ibo.txt').map((line, i) => ({
    sourceId: 'ntrex-ig',
    language: STANDARD_IGBO_LANGUAGE,
    line: i + 1,
    text: normalise(line),
    translation: english[i] ?? '',
    reference: null,
  })),
);
const snapshot = openSnapshot(path.resolve(values.snapshot));
try {
  const words = positionals.length > 0 ? positionals : evaluateCommonWords(snapshot, loadCommonWords()).failures.map((f) => f.split(' (')[0]);
  for (const word of words.map((w) => normalise(w))) {
    const sentences = text.sentencesWritten(word);
    process.stdout.write(`${word}: ${sentences.length} NTREX-128 sentences\n`);
    const items = snapshot.search({ q: word, language: STANDARD_IGBO_LANGUAGE, scope: 'headword', page: 1, limit: 50 }).items;
    for (const item of items.filter((i) => fold(i.exactForm) === fold(word))) {
      const entry = snapshot.entry(item.slug);
      if (!entry) continue;
      const { hits, expected, shown } = text.shown(sentences, meaningsOf(entry.senses.map((s) => s.definition)));
      const rank = entry.frequencyRank === null ? 'no frequency rank' : `frequency rank ${entry.frequencyRank}`;
      process.stdout.write(`  ${entry.exactForm} "${(entry.glosses[0] ?? '').slice(0, 40)}": ${rank}; meaning in ${hits} English lines, ${expected.toFixed(1)} by chance${shown ? ', shown' : ''}\n`);
    }
  }
} finally {
  snapshot.close();
}
