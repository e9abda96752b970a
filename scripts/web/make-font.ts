// Makes the website's fonts, two faces of one family, each regular and bold, as woff2 files under
// services/api/web/assets/fonts/, with their licences and a coverage file (the code points each face has, and
// its files' hashes) that the tests and the stylesheet's unicode-range read:
// - Noto Sans (SIL OFL 1.1), cut down to the Latin letters, marks and symbols of African Latin orthographies
//   and IPA;
// - Noto Sans Ethiopic (SIL OFL 1.1), cut down to the Ge'ez (Ethiopic) syllables and punctuation of the active
//   languages' text (Amharic), since the whole syllabary is too large to send to every reader.
//
//   node --import tsx scripts/web/make-font.ts [--snapshot .tmp/test-snapshot.sqlite]
//
// With --snapshot, every code point in the text of the snapshot's active languages (forms, glosses, senses,
// examples, pronunciations) that lies in a script a face covers is added to that face, so that nothing the
// dictionary shows falls back to another font mid-word.
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';

import subsetFont from 'subset-font';

import { openSnapshot } from '../../snapshot/reader/reader.ts';
import type { Snapshot } from '../../snapshot/reader/snapshot.ts';

const OUT_DIR = path.resolve(import.meta.dirname, '../../services/api/web/assets/fonts');
const require = createRequire(import.meta.url);
const sourceDir = (pkg: string) => path.dirname(require.resolve(`${pkg}/package.json`));

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const chars = (text: string): number[] => [...text].map((c) => c.codePointAt(0) ?? 0);

/** The marks African orthographies put on letters: tones, underdots, dots above, macrons, tildes, rings. */
const MARKS = [
  ...range(0x0300, 0x0304), 0x0306, 0x0307, 0x0308, 0x0309, 0x030a, 0x030b, 0x030c, 0x030f, 0x0311,
  0x0323, 0x0324, 0x0325, 0x0327, 0x0328, 0x0329, 0x032d, 0x032e, 0x0330, 0x0331, 0x0340, 0x0341, 0x0361,
];
const MARK_SET = new Set(MARKS);
const DOT_BELOW = 0x0323;

/**
 * A precomposed letter of Latin Extended Additional is kept when it is a letter with one of MARKS, or a letter
 * with a dot below and one more (Yoruba ẹ́ ọ̀ and the like): Vietnamese's stacked vowels are left out.
 */
function africanPrecomposed(codePoint: number): boolean {
  const decomposed = [...String.fromCodePoint(codePoint).normalize('NFD')].map((c) => c.codePointAt(0) ?? 0);
  const [base, ...marks] = decomposed;
  if (!/[A-Za-z]/.test(String.fromCodePoint(base)) || !marks.every((m) => MARK_SET.has(m))) return false;
  return marks.length === 1 || (marks.length === 2 && marks.includes(DOT_BELOW));
}

/** Letters of the African Reference Alphabet and neighbours outside Latin-1 and Latin Extended-A. */
const AFRICAN_LETTERS = chars('ƁɓƊɗƘƙƳƴƐɛƆɔƉɖƑƒƔɣƲʋƎǝƏəƗɨɄʉǸǹǍǎǏǐǑǒǓǔǦǧƩʃƷʒƜɯɅʌƢƣƸƹʼʻˈˌːˑ');

export function baseCodePoints(): number[] {
  return [
    ...range(0x0020, 0x007e), // Basic Latin
    ...range(0x00a0, 0x00ff), // Latin-1 Supplement
    ...range(0x0100, 0x017f), // Latin Extended-A: ŋ, macron vowels, ĩ ũ, ŉ
    ...AFRICAN_LETTERS,
    ...range(0x0250, 0x02af), // IPA Extensions: the pronunciations
    ...range(0x02b0, 0x02c7), 0x02c8, 0x02c9, 0x02cc, 0x02d0, 0x02d1, 0x02da, 0x02dc, // modifier letters in IPA
    ...MARKS,
    ...range(0x1e00, 0x1eff).filter(africanPrecomposed),
    ...range(0x2010, 0x2027), 0x2030, 0x2039, 0x203a, 0x2044, // punctuation: dashes, quotes, ellipsis, ‰
    0x20a6, 0x20ac, 0x20b5, // ₦ € ₵
    0x2212, // minus
  ];
}

/** The scripts whose code points in the data are taken in: Latin, IPA, combining marks. */
export const FONT_SCRIPTS = /[\p{Script=Latin}\u0250-\u02ff\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff]/u;
/** The Ge'ez script: the syllables, their combining marks, and Ethiopic punctuation and numerals. */
export const ETHIOPIC = /\p{Script=Ethiopic}/u;

/** Ethiopic punctuation (፡ ። ፣ ፤ ፥ ፦ ፧ ፨), kept whatever the data holds: people type it in a search box. */
export function ethiopicBaseCodePoints(): number[] {
  return range(0x1360, 0x1368);
}

/** Every text of the active languages a page may show in the font: entries' forms, glosses, examples, native names. */
export function* activeLanguageTexts(snapshot: Snapshot): Generator<{ where: string; text: string }> {
  for (const language of snapshot.languages().filter((l) => l.status === 'active')) {
    for (let page = 1; ; page++) {
      const result = snapshot.search({ language: language.code, page, limit: 100 });
      if (result.items.length === 0) break;
      for (const item of result.items) {
        const entry = snapshot.entry(item.slug);
        if (!entry) continue;
        const texts = [entry.exactForm, entry.headword, entry.pronunciation ?? '', ...entry.glosses, ...entry.senses.map((s) => s.definition), ...entry.variants.map((v) => v.form), ...entry.examples.flatMap((e) => [e.text, e.translation ?? ''])];
        for (const text of texts) yield { where: entry.slug, text };
      }
    }
    yield { where: `${language.code} native name`, text: language.nativeName };
  }
}

/** Every code point of the active languages' text in the snapshot, split by the face that should have it. */
function snapshotCodePoints(snapshotPath: string): { latin: Set<number>; ethiopic: Set<number> } {
  const snapshot = openSnapshot(snapshotPath);
  const found = { latin: new Set<number>(), ethiopic: new Set<number>() };
  try {
    for (const { text } of activeLanguageTexts(snapshot)) {
      for (const c of text) {
        if (FONT_SCRIPTS.test(c)) found.latin.add(c.codePointAt(0) ?? 0);
        else if (ETHIOPIC.test(c)) found.ethiopic.add(c.codePointAt(0) ?? 0);
      }
    }
  } finally {
    snapshot.close();
  }
  return found;
}

/** The font's code points as ranges ("0020-007E,00A0-00FF,..."), for the coverage file and unicode-range. */
export function toRanges(codePoints: Iterable<number>): string {
  const sorted = [...new Set(codePoints)].sort((a, b) => a - b);
  const parts: string[] = [];
  const hex = (n: number) => n.toString(16).toUpperCase().padStart(4, '0');
  for (let i = 0; i < sorted.length; i++) {
    const start = sorted[i];
    while (i + 1 < sorted.length && sorted[i + 1] === sorted[i] + 1) i++;
    parts.push(start === sorted[i] ? hex(start) : `${hex(start)}-${hex(sorted[i])}`);
  }
  return parts.join(',');
}

/** The Unicode code points of a TrueType font's cmap (formats 4 and 12, the ones a subset writes). */
export function cmapCodePoints(font: Uint8Array): number[] {
  const view = new DataView(font.buffer, font.byteOffset, font.byteLength);
  const tables = view.getUint16(4);
  let cmap = -1;
  for (let i = 0; i < tables; i++) {
    const record = 12 + i * 16;
    if (String.fromCharCode(...font.subarray(record, record + 4)) === 'cmap') cmap = view.getUint32(record + 8);
  }
  if (cmap < 0) throw new Error('no cmap table');
  const found = new Set<number>();
  for (let i = 0; i < view.getUint16(cmap + 2); i++) {
    const sub = cmap + view.getUint32(cmap + 4 + i * 8 + 4);
    const format = view.getUint16(sub);
    if (format === 4) {
      const segments = view.getUint16(sub + 6) / 2;
      const ends = sub + 14;
      const starts = ends + segments * 2 + 2;
      const deltas = starts + segments * 2;
      const offsets = deltas + segments * 2;
      for (let s = 0; s < segments; s++) {
        const end = view.getUint16(ends + s * 2);
        const start = view.getUint16(starts + s * 2);
        const delta = view.getUint16(deltas + s * 2);
        const offset = view.getUint16(offsets + s * 2);
        for (let c = start; c <= end && c !== 0xffff; c++) {
          const glyph = offset === 0 ? (c + delta) & 0xffff : view.getUint16(offsets + s * 2 + offset + (c - start) * 2);
          if (glyph !== 0) found.add(c);
        }
      }
    } else if (format === 12) {
      const groups = view.getUint32(sub + 12);
      for (let g = 0; g < groups; g++) {
        const at = sub + 16 + g * 12;
        for (let c = view.getUint32(at); c <= view.getUint32(at + 4); c++) found.add(c);
      }
    }
  }
  return [...found].sort((a, b) => a - b);
}

/** A face of the family: the npm package with the TTFs, the cut's files, and the licence's name beside them. */
interface Face {
  name: string;
  pkg: string;
  licence: string;
  weights: readonly { weight: number; source: string; file: string }[];
}

export const FACES = {
  latin: {
    name: 'Noto Sans',
    pkg: '@expo-google-fonts/noto-sans',
    licence: 'OFL.txt',
    weights: [
      { weight: 400, source: '400Regular/NotoSans_400Regular.ttf', file: 'noto-sans-400.woff2' },
      { weight: 700, source: '700Bold/NotoSans_700Bold.ttf', file: 'noto-sans-700.woff2' },
    ],
  },
  ethiopic: {
    name: 'Noto Sans Ethiopic',
    pkg: '@expo-google-fonts/noto-sans-ethiopic',
    licence: 'OFL-Ethiopic.txt',
    weights: [
      { weight: 400, source: '400Regular/NotoSansEthiopic_400Regular.ttf', file: 'noto-sans-ethiopic-400.woff2' },
      { weight: 700, source: '700Bold/NotoSansEthiopic_700Bold.ttf', file: 'noto-sans-ethiopic-700.woff2' },
    ],
  },
} as const satisfies Record<string, Face>;

export interface FaceCoverage {
  font: string;
  unicodeRange: string;
  files: Record<string, { sha256: string; bytes: number }>;
}

/** Cuts one face's weights to the wanted code points, writes them and its licence, and says what they cover. */
async function makeFace(face: Face, wanted: Set<number>): Promise<FaceCoverage> {
  const dir = sourceDir(face.pkg);
  const text = String.fromCodePoint(...wanted);
  const files: FaceCoverage['files'] = {};
  let covered: number[] | undefined;
  for (const { source, file } of face.weights) {
    const ttf = readFileSync(path.join(dir, source));
    const woff2 = await subsetFont(ttf, text, { targetFormat: 'woff2' });
    // The code points the cut font really maps (the same cut, read from its uncompressed form).
    const mapped = cmapCodePoints(await subsetFont(ttf, text, { targetFormat: 'sfnt' }));
    if (covered && toRanges(covered) !== toRanges(mapped)) throw new Error(`${file} covers other code points than the first weight`);
    covered = mapped;
    writeFileSync(path.join(OUT_DIR, file), woff2);
    files[file] = { sha256: createHash('sha256').update(woff2).digest('hex'), bytes: woff2.length };
    console.log(`${file}: ${woff2.length} bytes`);
  }
  const missing = [...wanted].filter((c) => !covered?.includes(c));
  copyFileSync(path.join(dir, 'LICENSE_FONT'), path.join(OUT_DIR, face.licence));
  console.log(`${face.name}: ${covered?.length} code points${missing.length ? `; not in it: ${toRanges(missing)}` : ''}`);
  const version = (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
  return { font: `${face.name} (${face.pkg} ${version}), SIL Open Font License 1.1 (${face.licence})`, unicodeRange: toRanges(covered ?? []), files };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { snapshot: { type: 'string' } } });
  const latin = new Set(baseCodePoints());
  const ethiopic = new Set(ethiopicBaseCodePoints());
  if (values.snapshot) {
    const found = snapshotCodePoints(values.snapshot);
    for (const c of found.latin) latin.add(c);
    for (const c of found.ethiopic) ethiopic.add(c);
  }
  mkdirSync(OUT_DIR, { recursive: true });
  const faces = { latin: await makeFace(FACES.latin, latin), ethiopic: await makeFace(FACES.ethiopic, ethiopic) };
  writeFileSync(
    path.join(OUT_DIR, 'coverage.json'),
    `${JSON.stringify({ made: 'node --import tsx scripts/web/make-font.ts --snapshot <snapshot>', faces }, null, 2)}\n`,
  );
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) await main();
