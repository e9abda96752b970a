// Languages become active by their data: glossed entries against the manifest's threshold, nothing listed in code.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

import { buildSnapshot } from '../../../snapshot/compiler/pipeline.ts';
import { openSnapshot } from '../../../snapshot/reader/reader.ts';
import { tempDir } from './build-helpers.ts';

/** Real lines of the Amharic, Hausa and Tigrinya exports (wiktionary-africa/). */
const FILES: Record<string, string[]> = {
  'amharic.tsv': [
    'ሀልሎ|hällo\t<i>intj</i><br><ol><li>hello</li></ol>',
    'ሀያ|haya|həya|ሃያ|ህያ\t<i>num</i><br><ol><li>twenty</li></ol>',
    'ሀይቅ|häyḳ\t<i>noun</i><br><ol><li>lake</li></ol>',
    'ውሃ|wəha\t<i>noun</i><br><ol><li>water.</li></ol>',
  ],
  'hausa.tsv': [
    'kare|kàren|kā̀r̃ê|kàryā|kàrē|kā̀r̃ên|kar̃nukā̀\t<i>noun</i><br><ol><li>dog</li><li>(Niger) quarter (of a city)</li></ol>',
    'ruwa|ruwā̀yē|ruwā|ruwan\t<i>noun</i><br><ol><li>water</li><li>liquid, juice</li></ol><br><i>adv</i><br><ol><li>in the water</li></ol>',
    'ƙasa|ƙasā̀shē|ƙasà|ƙas|ƙasar̃|ƙasā\t<i>noun</i><br><ol><li>soil, earth</li><li>ground</li></ol>',
    "'ya|ƴa|ƴā|ƴāƴā|ƴar̃|'yā'yā|'yar̃|'yā\t<i>noun</i><br><ol><li>daughter</li></ol>",
  ],
  'tigrinya.tsv': ['ሃብቲ|habti\t<i>noun</i><br><ol><li>wealth</li></ol>', 'ሃገር\t<i>noun</i><br><ol></ol>'],
};
const LICENCE = { spdx: 'CC-BY-SA-3.0', name: 'CC BY-SA 3.0', url: 'https://creativecommons.org/licenses/by-sa/3.0/' };
const source = (id: string, language: string, file: string, extra: Record<string, unknown> = {}) => ({
  id, name: id, language, importer: 'wiktionary-tsv', file, licence: LICENCE, attribution: 'Wiktionary contributors', url: 'https://en.wiktionary.org/', role: 'lexicon', verified: true, ...extra,
});

async function build(t: { after: (fn: () => void) => void }) {
  const dir = tempDir(t);
  const corpora = path.join(dir, 'corpora');
  mkdirSync(corpora, { recursive: true });
  for (const [name, lines] of Object.entries(FILES)) writeFileSync(path.join(corpora, name), `${lines.join('\n')}\n`);
  writeFileSync(
    path.join(corpora, 'sources.json'),
    JSON.stringify({
      // Four glossed entries make a language active here; Tigrinya's one glossed entry does not.
      activeAtGlossedEntries: 4,
      sources: [source('wiktionary-am', 'am', 'amharic.tsv'), source('wiktionary-ha', 'ha', 'hausa.tsv', { headword: 'tone-marked-form' }), source('wiktionary-ti', 'ti', 'tigrinya.tsv')],
    }),
  );
  const out = path.join(dir, 'snapshot.sqlite');
  const { report } = await buildSnapshot({ out, corpora, date: '2026-01-01' });
  const snap = openSnapshot(out);
  t.after(() => snap.close());
  return { report, snap };
}

describe('languages by their data', () => {
  it('languages - active at the threshold of glossed entries; a preparing language is imported and reported, not served', async (t) => {
    const { report, snap } = await build(t);
    const status = Object.fromEntries(snap.languages().map((l) => [l.code, [l.status, l.wordCount]]));
    assert.deepEqual(status.am, ['active', 4], JSON.stringify(status));
    assert.deepEqual(status.ha, ['active', 5], JSON.stringify(status));
    assert.deepEqual(status.ti, ['preparing', 0], JSON.stringify(status));
    assert.deepEqual(status.ig, ['preparing', 0], 'a language without a corpus');
    const ti = report.languages.find((l) => l.code === 'ti');
    assert.deepEqual(ti && [ti.status, ti.read, ti.imported, ti.rejected, ti.glossedEntries, ti.entries], ['preparing', 2, 1, 1, 1, 0], JSON.stringify(ti));
    assert.equal(snap.search({ q: 'wealth', page: 1, limit: 5 }).total, 0, 'preparing entries are not served');
    assert.equal(snap.findActiveLanguage('tigrinya'), undefined);
    assert.equal(snap.findActiveLanguage('amharic')?.code, 'am');
  });
  it('languages - Ge\'ez is searched as written and by its romanisation; Hausa without its hooked letters and tones', async (t) => {
    const { snap } = await build(t);
    const first = (q: string, language?: string) => snap.search({ q, language, page: 1, limit: 5 }).items[0];
    assert.deepEqual([first('ሀይቅ')?.exactForm, first('ሀይቅ')?.matchType], ['ሀይቅ', 'exact']);
    for (const q of ['häyḳ', 'hayk', 'HAYK']) assert.deepEqual([first(q)?.exactForm, first(q)?.matchType], ['ሀይቅ', 'form'], q);
    assert.deepEqual([first('haya')?.exactForm, first('haya')?.matchType], ['ሀያ', 'form']);
    assert.equal(first('lake', 'am')?.exactForm, 'ሀይቅ');
    assert.deepEqual([first('kasa')?.exactForm, first('kasa')?.matchType], ['ƙasà'.normalize('NFC'), 'folded']);
    assert.deepEqual([first('ƙasà')?.exactForm, first('ƙasà')?.matchType], ['ƙasà'.normalize('NFC'), 'exact']);
    assert.equal(first('ya')?.exactForm, "'yā".normalize('NFC'), "'ya (the title's letters kept) and ƴa both fold to ya");
    assert.equal(first('ƴa')?.matchType, 'folded');
    assert.deepEqual([first('kàryā')?.exactForm, first('kàryā')?.matchType], ['kā̀r̃ê'.normalize('NFC'), 'form'], 'a plural finds its noun');
    assert.equal(first('water', 'ha')?.exactForm, 'ruwā'.normalize('NFC'));
  });
});
