// The self-hosted font: the committed files are the ones scripts/web/make-font.ts describes, they cover every
// Latin letter, mark and IPA symbol the snapshot's active languages use, and the pages load them as asked.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { activeLanguageTexts, FONT_SCRIPTS } from '../../scripts/web/make-font.ts';
import { openSnapshot } from '../../snapshot/reader/reader.ts';
import type { Snapshot } from '../../snapshot/reader/snapshot.ts';
import { layout } from '../../services/api/web/layout.ts';
import { testSnapshotPath } from '../support/snapshot.ts';
import { ASSETS } from './fixtures.ts';

const FONTS = path.resolve(import.meta.dirname, '../../services/api/web/assets/fonts');
const coverage = JSON.parse(readFileSync(path.join(FONTS, 'coverage.json'), 'utf8')) as {
  unicodeRange: string;
  files: Record<string, { sha256: string; bytes: number }>;
};

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
  it('font - the committed woff2 files are those the coverage file describes, with their licence', () => {
    for (const [file, { sha256, bytes }] of Object.entries(coverage.files)) {
      const data = readFileSync(path.join(FONTS, file));
      assert.equal(data.length, bytes, file);
      assert.equal(createHash('sha256').update(data).digest('hex'), sha256, `${file}: rerun scripts/web/make-font.ts`);
      assert.equal(data.subarray(0, 4).toString('latin1'), 'wOF2', file);
      assert.ok(bytes < 48 * 1024, `${file} stays small: ${bytes} bytes`);
    }
    assert.match(readFileSync(path.join(FONTS, 'OFL.txt'), 'utf8'), /SIL OPEN FONT LICENSE Version 1\.1/);
  });

  it('font - covers every letter, mark and IPA symbol of the active languages in the snapshot', () => {
    const covered = codePointsOf(coverage.unicodeRange);
    for (const c of 'ẹọṣịụṅŋɓɗƙƴɛɔàáèéìíòóùúāēīōụ̄̀́̄ʼ') assert.ok(covered.has(c.codePointAt(0) ?? 0), `U+${(c.codePointAt(0) ?? 0).toString(16)} ${c}`);
    const missing = new Map<string, string>();
    for (const { where, text } of activeLanguageTexts(snapshot)) {
      for (const c of text) {
        const point = c.codePointAt(0) ?? 0;
        if (FONT_SCRIPTS.test(c) && !covered.has(point) && !missing.has(c)) missing.set(c, `${where}: ${text}`);
      }
    }
    assert.deepEqual([...missing].map(([c, where]) => `U+${(c.codePointAt(0) ?? 0).toString(16)} in ${where}`), [], 'rerun node --import tsx scripts/web/make-font.ts --snapshot <snapshot>');
  });

  it('font - no page preloads it (the stylesheet comes first on a slow link); the stylesheet swaps it in', () => {
    const page = layout({ title: 'x', section: 'none', assets: ASSETS, body: '' }).value;
    assert.doesNotMatch(page, /rel="preload"/);
    const css = readFileSync(path.resolve(import.meta.dirname, '../../services/api/web/assets/site.css'), 'utf8');
    const faces = css.match(/@font-face \{[^}]*\}/g) ?? [];
    assert.equal(faces.length, 2, css.slice(0, 800));
    for (const face of faces) {
      assert.match(face, /font-family: "Noto Sans"/);
      assert.match(face, /font-display: swap/);
      const file = /url\("\/assets\/fonts\/([^"]+)"\)/.exec(face)?.[1] ?? '';
      assert.ok(file in coverage.files && existsSync(path.join(FONTS, file)), face);
    }
  });
});
