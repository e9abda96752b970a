// The self-hosted fonts: the committed files are the ones scripts/web/make-font.ts describes, Noto Sans covers
// every Latin letter, mark and IPA symbol the snapshot's active languages use, Noto Sans Ethiopic every Ge'ez
// syllable and punctuation mark, and the pages load them as asked.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { activeLanguageTexts, ETHIOPIC, FACES, type FaceCoverage, FONT_SCRIPTS } from '../../scripts/web/make-font.ts';
import { openSnapshot } from '../../snapshot/reader/reader.ts';
import type { Snapshot } from '../../snapshot/reader/snapshot.ts';
import { layout } from '../../services/api/web/layout.ts';
import { testSnapshotPath } from '../support/snapshot.ts';
import { ASSETS } from './fixtures.ts';

const FONTS = path.resolve(import.meta.dirname, '../../services/api/web/assets/fonts');
const { faces } = JSON.parse(readFileSync(path.join(FONTS, 'coverage.json'), 'utf8')) as { faces: Record<keyof typeof FACES, FaceCoverage> };
const allFiles = Object.values(faces).flatMap((face) => Object.keys(face.files));

/** The code points of the snapshot's active languages' text in a script, missing from a face, with where each is. */
function missingFrom(face: FaceCoverage, script: RegExp): string[] {
  const covered = codePointsOf(face.unicodeRange);
  const missing = new Map<string, string>();
  for (const { where, text } of activeLanguageTexts(snapshot)) {
    for (const c of text) {
      if (script.test(c) && !covered.has(c.codePointAt(0) ?? 0) && !missing.has(c)) missing.set(c, `${where}: ${text}`);
    }
  }
  return [...missing].map(([c, where]) => `U+${(c.codePointAt(0) ?? 0).toString(16)} in ${where}`);
}

function codePointsOf(ranges: string): Set<number> {
  const set = new Set<number>();
  for (const part of ranges.split(',')) {
    const [from, to = from] = part.split('-').map((h) => parseInt(h, 16));
    for (let c = from; c <= to; c++) set.add(c);
  }
  return set;
}

let snapshot: Snapshot;
before(() => {
  snapshot = openSnapshot(testSnapshotPath());
});
after(() => snapshot?.close());

describe('font', () => {
  it('font - the committed woff2 files are those the coverage file describes, with their licences', () => {
    for (const [name, face] of Object.entries(faces)) {
      assert.deepEqual(Object.keys(face.files), FACES[name as keyof typeof FACES].weights.map((w) => w.file), name);
      for (const [file, { sha256, bytes }] of Object.entries(face.files)) {
        const data = readFileSync(path.join(FONTS, file));
        assert.equal(data.length, bytes, file);
        assert.equal(createHash('sha256').update(data).digest('hex'), sha256, `${file}: rerun scripts/web/make-font.ts`);
        assert.equal(data.subarray(0, 4).toString('latin1'), 'wOF2', file);
        assert.ok(bytes < 48 * 1024, `${file} stays small: ${bytes} bytes`);
      }
      const licence = FACES[name as keyof typeof FACES].licence;
      assert.match(readFileSync(path.join(FONTS, licence), 'utf8'), /SIL OPEN FONT LICENSE Version 1\.1/, licence);
    }
  });

  it('font - covers every letter, mark and IPA symbol of the active languages in the snapshot', () => {
    const covered = codePointsOf(faces.latin.unicodeRange);
    for (const c of 'ẹọṣịụṅŋɓɗƙƴɛɔàáèéìíòóùúāēīōụ̄̀́̄ʼ') assert.ok(covered.has(c.codePointAt(0) ?? 0), `U+${(c.codePointAt(0) ?? 0).toString(16)} ${c}`);
    assert.deepEqual(missingFrom(faces.latin, FONT_SCRIPTS), [], 'rerun node --import tsx scripts/web/make-font.ts --snapshot <snapshot>');
  });

  it('font - the Ethiopic face covers every Ge\'ez syllable and punctuation mark of the active languages in the snapshot', () => {
    const covered = codePointsOf(faces.ethiopic.unicodeRange);
    for (const c of '፡።፣፤') assert.ok(covered.has(c.codePointAt(0) ?? 0), `U+${(c.codePointAt(0) ?? 0).toString(16)} ${c}`);
    assert.ok([...covered].every((c) => ETHIOPIC.test(String.fromCodePoint(c))), `only Ethiopic: ${faces.ethiopic.unicodeRange}`);
    assert.deepEqual(missingFrom(faces.ethiopic, ETHIOPIC), [], 'rerun node --import tsx scripts/web/make-font.ts --snapshot <snapshot>');
  });

  it('font - no page preloads it (the stylesheet comes first on a slow link); the stylesheet swaps it in', () => {
    const page = layout({ title: 'x', section: 'none', assets: ASSETS, body: '' }).value;
    assert.doesNotMatch(page, /rel="preload"/);
    const css = readFileSync(path.resolve(import.meta.dirname, '../../services/api/web/assets/site.css'), 'utf8');
    const rules = css.match(/@font-face \{[^}]*\}/g) ?? [];
    assert.equal(rules.length, 4, css.slice(0, 1200));
    for (const rule of rules) {
      assert.match(rule, /font-family: "Noto Sans"/);
      assert.match(rule, /font-display: swap/);
      const file = /url\("\/assets\/fonts\/([^"]+)"\)/.exec(rule)?.[1] ?? '';
      assert.ok(allFiles.includes(file) && existsSync(path.join(FONTS, file)), rule);
      // The Ethiopic face is for the Ethiopic blocks only, each of its code points inside its unicode-range.
      const range = /unicode-range: ([^;]+);/.exec(rule)?.[1];
      if (file in faces.ethiopic.files) {
        assert.ok(range, rule);
        const blocks = range.split(/,\s*/).map((r) => r.replace('U+', '').split('-').map((h) => parseInt(h, 16)));
        for (const c of codePointsOf(faces.ethiopic.unicodeRange)) assert.ok(blocks.some(([from, to = from]) => c >= from && c <= to), `U+${c.toString(16)} outside ${range}`);
      } else assert.equal(range, undefined, rule);
    }
    // Faces whose ranges overlap are tried last-defined first: the Ethiopic ones come after Noto Sans's.
    const ethiopicFirst = rules.findIndex((r) => r.includes('noto-sans-ethiopic-'));
    assert.ok(ethiopicFirst > 0 && rules.slice(ethiopicFirst).every((r) => r.includes('noto-sans-ethiopic-')), 'Ethiopic faces defined last');
  });
});
