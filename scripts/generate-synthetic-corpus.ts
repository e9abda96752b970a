// Writes a synthetic corpus in the real formats (igbo-api JSON, kaikki JSON, CoNLL-U, Unilex TSV) so the
// same build runs at 10k / 100k / 1M entries: `tsx scripts/generate-synthetic-corpus.ts --entries N --out DIR`.
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { entries: { type: 'string', default: '10000' }, out: { type: 'string' }, seed: { type: 'string', default: '1' } } });
if (!values.out) {
  process.stderr.write('usage: tsx scripts/generate-synthetic-corpus.ts --entries N --out DIR [--seed S]\n');
  process.exit(2);
}
const ENTRIES = Number(values.entries);
const OUT = path.resolve(values.out);
let state = Number(values.seed) >>> 0 || 1;
/** xorshift32: deterministic, so the same N and seed give the same corpus (and snapshot hash). */
function random(): number {
  state ^= state << 13;
  state >>>= 0;
  state ^= state >>> 17;
  state ^= state << 5;
  state >>>= 0;
  return state / 0x1_0000_0000;
}
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];

const CONSONANTS = ['', 'b', 'd', 'f', 'g', 'gb', 'h', 'j', 'k', 'kp', 'l', 'm', 'n', 'ny', 'r', 's', 'ṣ', 't', 'w', 'y'];
const VOWELS = ['a', 'e', 'ẹ', 'i', 'o', 'ọ', 'u'];
const IGBO_VOWELS = ['a', 'e', 'i', 'ị', 'o', 'ọ', 'u', 'ụ'];
const TONES = ['', '', '\u0300', '\u0301', '\u0304'];
const ENGLISH = 'water fire house road mother father child friend money food tree river stone sky rain sun moon star dog goat cow bird fish yam cassava market town king chief work song drum word name head hand foot eye mouth heart blood body night day morning evening year month week good bad big small new old long short hot cold red black white eat drink go come see hear speak sleep walk run sit stand give take buy sell build cook wash carry open close begin finish laugh cry know think love fear hope pray dance sing play fight win lose teach learn write read count'.split(' ');

/** Distinct base form for index i (mixed radix over syllables), then random tones: never two alike. */
function word(i: number, vowels: readonly string[]): string {
  const syllables: string[] = [];
  let n = i + CONSONANTS.length * vowels.length;
  while (n > 0) {
    const s = n % (CONSONANTS.length * vowels.length);
    n = Math.floor(n / (CONSONANTS.length * vowels.length));
    const v = vowels[s % vowels.length];
    syllables.push(`${CONSONANTS[Math.floor(s / vowels.length)]}${v}${pick(TONES)}`);
  }
  return syllables.join('').normalize('NFC');
}
const gloss = (): string => Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(ENGLISH)).join(' ');

class Writer {
  private readonly fd: number;
  private buffer: string[] = [];
  private size = 0;
  constructor(file: string) {
    mkdirSync(path.dirname(file), { recursive: true });
    this.fd = openSync(file, 'w');
  }
  write(text: string): void {
    this.buffer.push(text);
    this.size += text.length;
    if (this.size > 1 << 20) this.flush();
  }
  flush(): void {
    writeSync(this.fd, this.buffer.join(''));
    this.buffer = [];
    this.size = 0;
  }
  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

const igCount = Math.floor(ENTRIES / 2);
const yoCount = ENTRIES - igCount;
const igWords: string[] = [];
const yoWords: string[] = [];

// igbo-api: one object, headword → [record]; verb roots, variations, examples and "see X" included.
{
  const w = new Writer(path.join(OUT, 'igbo-api', 'ig-en.json'));
  w.write('{');
  for (let i = 0; i < igCount; i++) {
    const verb = random() < 0.45;
    const form = `${verb ? '-' : ''}${word(i, IGBO_VOWELS)}`;
    if (igWords.length < 20_000) igWords.push(form);
    const definitions = random() < 0.02 && i > 0 ? [`see ${igWords[Math.floor(random() * Math.min(i, igWords.length))]}`] : Array.from({ length: 1 + Math.floor(random() * 2) }, gloss);
    const record = {
      word: form,
      wordClass: verb ? 'AV' : pick(['NNC', 'NNC', 'NNC', 'ADJ', 'ADV', 'INTJ']),
      definitions,
      examples: random() < 0.15 ? [{ igbo: `${form} ${word(i + 7, IGBO_VOWELS)}`, english: gloss() }] : [],
      variations: random() < 0.05 ? [word(i + igCount, IGBO_VOWELS)] : [],
      stems: null,
    };
    w.write(`${i === 0 ? '' : ','}${JSON.stringify(form)}:${JSON.stringify([record])}`);
  }
  w.write('}');
  w.close();
}

// kaikki: one object, folded headword → [records]; duplicates, homographs and alternative spellings included.
{
  const w = new Writer(path.join(OUT, 'wiktionary-yoruba', 'kaikki-yoruba-lexicon.json'));
  w.write('{');
  let written = 0;
  for (let i = 0; written < yoCount; i++) {
    const form = word(i, VOWELS);
    if (yoWords.length < 20_000) yoWords.push(form);
    const key = form.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
    const base = {
      pos: pick(['noun', 'noun', 'noun', 'verb', 'adj', 'adv', 'name']),
      etymologyNumber: random() < 0.1 ? '2' : '1',
      headword: key,
      canonicalForm: { value: form, inferenceMethod: 'explicit_canonical_tag', confidence: random() < 0.1 ? 0.5 : 1, originalValue: key },
      standardForms: [form],
      glosses: Array.from({ length: 1 + Math.floor(random() * 3) }, gloss),
      altOfTargets: random() < 0.03 && yoWords.length > 10 ? [pick(yoWords)] : [],
      componentCandidates: [],
      derivedForms: random() < 0.1 && yoWords.length > 10 ? [pick(yoWords)] : [],
    };
    const records = [base];
    if (random() < 0.1) records.push(base); // duplicated export records, merged by the build
    written += 1;
    w.write(`${i === 0 ? '' : ','}${JSON.stringify(`${key}#${i}`)}:${JSON.stringify(records)}`);
  }
  w.write('}');
  w.close();
}

// CoNLL-U: sentences over generated Yoruba lemmas.
{
  const w = new Writer(path.join(OUT, 'ud-yoruba-ytb', 'yo_ytb-ud-test.conllu'));
  const sentences = Math.min(5000, Math.max(50, Math.floor(ENTRIES / 200)));
  for (let s = 0; s < sentences; s++) {
    const lemmas = Array.from({ length: 3 + Math.floor(random() * 5) }, () => pick(yoWords));
    w.write(`# sent_id = SYN_${s}\n# text = ${lemmas.join(' ')}.\n${random() < 0.7 ? `# text_en = ${gloss()}.\n` : ''}`);
    lemmas.forEach((l, i) => w.write(`${i + 1}\t${l}\t${l}\tNOUN\t_\t_\t0\troot\t_\tGloss=${pick(ENGLISH)}\n`));
    w.write('\n');
  }
  w.close();
}

// Unilex: frequency lists over folded generated forms.
for (const [lang, words] of [['ig', igWords], ['yo', yoWords]] as const) {
  const w = new Writer(path.join(OUT, 'unilex-frequency', `${lang}.txt`));
  w.write('Form\tFrequency\n\n# SPDX-License-Identifier: Unicode-DFS-2016\n# synthetic\n\n');
  const n = Math.min(words.length, 10_000);
  for (let i = 0; i < n; i++) w.write(`${words[i].normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/^-/, '')}\t${Math.floor(1e7 / (i + 1))}\n`);
  w.close();
}
// The corpus's own sources manifest: the project's sources whose files were written here (corpora/sources.json
// lists many more, which a synthetic directory does not have).
{
  const manifest = JSON.parse(readFileSync(new URL('../corpora/sources.json', import.meta.url), 'utf8')) as { sources: { file: string }[] };
  const sources = manifest.sources.filter((s) => existsSync(path.join(OUT, s.file)));
  // Every generated language is served whatever --entries is (the bench also builds small corpora).
  writeFileSync(path.join(OUT, 'sources.json'), `${JSON.stringify({ ...manifest, activeAtGlossedEntries: 1, sources }, null, 2)}\n`);
}
process.stdout.write(`synthetic corpus: ${ENTRIES} dictionary records (ig ${igCount}, yo ${yoCount}) in ${OUT}\n`);
