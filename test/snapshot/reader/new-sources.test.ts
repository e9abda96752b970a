// The UniMorph, FreeDict Afrikaans and WikiPron sources on the real-corpora snapshot: every record of their files is
// in the build report with its disposition, Amharic is served from its glosses, and the new forms find their entries.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';

import type { WordSummary } from '../../../services/shared/schemas.ts';
import type { BuildReport } from '../../../snapshot/compiler/report.ts';
import { openSnapshot } from '../../../snapshot/reader/reader.ts';
import { testSnapshotPath } from '../../support/snapshot.ts';

const file = testSnapshotPath();
const snap = openSnapshot(file);
after(() => snap.close());
const top = (q: string, language: string): WordSummary[] => snap.search({ q, language, page: 1, limit: 5 }).items;
const show = (items: readonly WordSummary[]): string => JSON.stringify(items.map((i) => [i.exactForm, i.matchType, i.glosses.slice(0, 2)]));

/** Records per file, as SOURCE.md counts them (non-empty lines; TEI entries; eng-afr translations, one pair each). */
const RECORDS: Record<string, number> = {
  'unimorph-zu': 49119,
  'unimorph-sw': 10092,
  'unimorph-sw-verbs': 4949,
  'unimorph-am': 46224,
  'unimorph-am-glosses': 2230,
  'freedict-afr-eng': 5129,
  'freedict-eng-afr': 10415,
  'wikipron-af': 2022,
  'wikipron-am': 378,
  'wikipron-ki': 1158,
  'wikipron-mg': 185,
  'wikipron-ny': 830,
  'wikipron-tzm': 694,
  'wikipron-xh': 876,
};

describe('new sources (real corpora)', { skip: snap.meta.sample && 'built from the sample corpus' }, () => {
  it('new sources - every record of their files is read and imported, merged or rejected with a reason', (t) => {
    const reportFile = `${file}.report.json`;
    if (!existsSync(reportFile)) return t.skip('no build report beside the snapshot');
    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as BuildReport;
    for (const [id, records] of Object.entries(RECORDS)) {
      const s = report.sources.find((x) => x.source === id);
      assert.ok(s, `${id} in the report`);
      assert.equal(s.read, records, id);
      assert.equal(s.imported + s.merged + s.rejected, s.read, id);
      assert.equal(Object.values(s.rejectedBy).reduce((a, b) => a + b, 0), s.rejected, `${id}: every rejection has its reason`);
      assert.ok(s.imported > 0 || /^wikipron-(ny|tzm)$/.test(id), `${id} imported records: ${JSON.stringify(s)}`);
    }
    const am = report.languages.find((l) => l.code === 'am');
    assert.ok(am && am.status === 'active' && am.glossedEntries >= 1000, JSON.stringify(am && { ...am, attachments: undefined }));
  });
  it('new sources - an inflected form of a table finds its entry (matchType form), which lists the table with its source', () => {
    for (const [q, language, form] of [
      ['ninapenda', 'sw', 'kupenda'],
      ['ቃላት', 'am', 'ቃል'],
      ['ngiyahamba', 'zu', 'hamba'],
    ] as const) {
      const hits = top(q, language);
      const hit = hits.find((i) => i.exactForm === form);
      assert.ok(hit && hit.matchType === 'form', `${q}: ${show(hits)}`);
      const tables = snap.entry(hit.slug)?.inflections ?? [];
      assert.ok(tables.length > 0 && tables.every((x) => x.source.id.startsWith('unimorph-') && x.licence.spdx === 'CC-BY-SA-3.0' && x.forms.length <= 12 && x.total >= x.forms.length), `${q}: ${JSON.stringify(tables)}`);
    }
  });
  it('new sources - a FreeDict word Wiktionary lacks is an Afrikaans entry under the GPL; WikiPron gives Kikuyu and Xhosa pronunciations', () => {
    const hits = top('hond', 'af');
    assert.equal(hits[0]?.exactForm, 'hond', show(hits));
    const bom = top('A-bom', 'af').find((i) => i.exactForm === 'A-bom');
    const entry = bom && snap.entry(bom.slug);
    assert.deepEqual(entry && [entry.source.id, entry.licence.spdx, entry.partOfSpeech, entry.glosses[0]], ['freedict-afr-eng', 'GPL-2.0-or-later', 'other', 'atom bomb']);
    for (const [q, language] of [
      ['mũndũ', 'ki'],
      ['amanzi', 'xh'],
    ] as const) {
      const word = top(q, language).find((i) => i.exactForm === q);
      const prons = word ? (snap.entry(word.slug)?.pronunciations ?? []) : [];
      assert.ok(prons.some((p) => p.source.id === `wikipron-${language}`), `${q}: ${JSON.stringify(prons)}`);
    }
  });
});
