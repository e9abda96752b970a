// UniMorph importers: inflection tables (unimorph-tsv) as forms of their lemma's entry, listed with their features
// and found by search; Amharic's English glosses (unimorph-gloss) as entries, merged with Wiktionary's.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

import { INFLECTION_REJECTIONS } from '../../../snapshot/compiler/inflections.ts';
import { importUnimorphGloss } from '../../../snapshot/compiler/importers/unimorph-gloss.ts';
import { importUnimorphLine } from '../../../snapshot/compiler/importers/unimorph-tsv.ts';
import type { TableLemmas } from '../../../snapshot/compiler/importers/unimorph-table.ts';
import { buildSnapshot } from '../../../snapshot/compiler/pipeline.ts';
import { openSnapshot } from '../../../snapshot/reader/reader.ts';
import { tempDir } from './build-helpers.ts';

const zu = { id: 'unimorph-zu', language: 'zu', verified: false };
const sw = { id: 'unimorph-sw', language: 'sw', verified: false };
const am = { id: 'unimorph-am', language: 'am', verified: false };
const noTable: TableLemmas = { partsOfSpeech: new Map(), citations: new Map() };
/** Real rows of unimorph/amh (ሰበረ "break", ሀብታም "rich", ቃል "word", ሐዲድ: an unglossed spelling of ሀዲድ). */
const AMH = ['ሰበረ\tሰበረ\tV;PFV;3;SG;MASC', 'ሰበረ\tመስበር\tV.MSDR', 'ሰበረ\tሰበረች\tV;PFV;3;SG;FEM', 'ሰበረ\tሰበርኩ\tV;PFV;1;SG', 'ሀብታም\tሀብታም\tADJ', 'ሀብታም\tሀብታሞች\tADJ;PL', 'ቃል\tቃላት\tN;PL', 'ሐዲድ\tሐዲዱ\tN;DEF;MASC'];
const amhTable: TableLemmas = {
  partsOfSpeech: new Map([
    ['ሰበረ', ['verb']],
    ['ሀብታም', ['adjective']],
    ['ቃል', ['noun']],
    ['ሐዲድ', ['noun']],
  ]),
  citations: new Map([['ሰበረ', 'መስበር']]),
};

describe('importUnimorphLine', () => {
  it("importUnimorphLine - a Zulu row leads to its lemma's entry, without the vowel-length macron Zulu spelling does not write", () => {
    assert.deepEqual(importUnimorphLine('hamba\twāhamba\tV;BANTU1;RMT;PST', zu, noTable, ['\u0304']), {
      kind: 'inflection',
      record: { sourceId: zu.id, language: 'zu', form: 'wahamba', headword: 'hamba', features: 'V;BANTU1;RMT;PST', partOfSpeech: 'verb' },
    });
  });
  it('importUnimorphLine - a Swahili verb stem leads to the infinitive its entry is served by; an Amharic verb to its lemma, then its infinitive', () => {
    const penda = importUnimorphLine('penda\tninapenda\tV;FIN;IND;PRES;1;SG', sw, noTable);
    assert.deepEqual(penda?.kind === 'inflection' && [penda.record.headword, penda.record.otherHeadword], ['kupenda', undefined]);
    const sebere = importUnimorphLine(AMH[2], am, amhTable);
    assert.deepEqual(sebere?.kind === 'inflection' && [sebere.record.form, sebere.record.headword, sebere.record.otherHeadword], ['ሰበረች', 'ሰበረ', 'መስበር']);
  });
  it('importUnimorphLine - blank lines are no record; a line of other than three fields is rejected', () => {
    assert.equal(importUnimorphLine('', zu, noTable), null);
    assert.deepEqual(importUnimorphLine('hamba\tngiyahamba', zu, noTable), { kind: 'rejected', reason: 'malformed line (not lemma<TAB>form<TAB>features)' });
  });
});

describe('importUnimorphGloss', () => {
  it('importUnimorphGloss - each comma-separated gloss is a sense; the part of speech and citation form come from the table', () => {
    assert.deepEqual(importUnimorphGloss('ሀብታም\trich,wealthy', am, amhTable), {
      kind: 'reverse',
      record: { sourceId: am.id, language: 'am', form: 'ሀብታም', senses: ['rich', 'wealthy'], partOfSpeech: 'adjective' },
    });
    assert.deepEqual(importUnimorphGloss('ሰበረ\tbreak', am, amhTable), {
      kind: 'reverse',
      record: { sourceId: am.id, language: 'am', form: 'ሰበረ', otherForm: 'መስበር', senses: ['break'], partOfSpeech: 'verb' },
    });
    assert.deepEqual(importUnimorphGloss('ሀሰተኛ\tliar', am, amhTable), { kind: 'rejected', reason: 'lemma not in its inflection table (no part of speech)' });
  });
});

describe('UniMorph in the build', () => {
  it("UniMorph in the build - Amharic glosses become entries or join Wiktionary's, the table's forms find them and are listed, every row reported", async (t) => {
    const dir = tempDir(t, 'unimorph-');
    const corpora = path.join(dir, 'corpora');
    mkdirSync(corpora);
    // Real lines of wiktionary-africa/amharic-english-wiktionary.tsv.
    writeFileSync(
      path.join(corpora, 'wiktionary-am.tsv'),
      [
        'ሰበረ|säbbärä\t<i>verb</i><br><ol><li>(transitive) to break, to destroy</li></ol>',
        'ቃል|ቃላችሁ|ḳal\t<i>noun</i><br><ol><li>word</li><li>voice</li></ol>',
      ].join('\n'),
    );
    writeFileSync(path.join(corpora, 'amh'), `${AMH.join('\n')}\n`);
    writeFileSync(path.join(corpora, 'amh.gloss'), 'ሀብታም\trich,wealthy\nሰበረ\tbreak\nቃል\tword\n');
    const cc = { spdx: 'CC-BY-SA-3.0', name: 'CC BY-SA 3.0', url: 'https://creativecommons.org/licenses/by-sa/3.0/' };
    const common = { language: 'am', licence: cc, url: 'https://github.com/unimorph/amh', verified: false };
    const sourcesFile = path.join(dir, 'sources.json');
    writeFileSync(
      sourcesFile,
      JSON.stringify({
        activeAtGlossedEntries: 3,
        sources: [
          { ...common, id: 'wiktionary-am', name: 'Wiktionary', importer: 'wiktionary-tsv', file: 'wiktionary-am.tsv', role: 'lexicon', attribution: 'Wiktionary contributors.' },
          { ...common, id: 'unimorph-am-glosses', name: 'UniMorph glosses', importer: 'unimorph-gloss', file: 'amh.gloss', tableFile: 'amh', verbCitationFeatures: 'V.MSDR', role: 'lexicon', attribution: 'UniMorph.' },
          { ...common, id: 'unimorph-am', name: 'UniMorph Amharic', importer: 'unimorph-tsv', file: 'amh', verbCitationFeatures: 'V.MSDR', role: 'forms', attribution: 'UniMorph.' },
        ],
      }),
    );
    const languagesFile = path.join(dir, 'languages.json');
    writeFileSync(languagesFile, JSON.stringify({ languages: [{ code: 'am', slug: 'amharic', name: 'Amharic', nativeName: 'አማርኛ' }] }));
    const out = path.join(dir, 's.sqlite');
    const { report } = await buildSnapshot({ out, corpora, sourcesFile, languagesFile, date: '2026-01-01' });
    const counts = (id: string) => {
      const s = report.sources.find((x) => x.source === id);
      return s && { read: s.read, imported: s.imported, merged: s.mergedBy, rejected: s.rejectedBy };
    };
    // ሀብታም is a new entry; ሰበረ "break" and ቃል "word" are said already by Wiktionary's entries.
    assert.deepEqual(counts('unimorph-am-glosses'), { read: 3, imported: 1, merged: { 'same word and gloss as in the forward dictionary or the lexicon': 2 }, rejected: {} });
    assert.deepEqual(counts('unimorph-am'), { read: 8, imported: 7, merged: {}, rejected: { [INFLECTION_REJECTIONS.lemma]: 1 } });
    assert.equal(report.languages.find((l) => l.code === 'am')?.status, 'active', 'three glossed entries reach this test\'s threshold');

    const snap = openSnapshot(out);
    t.after(() => snap.close());
    const hits = snap.search({ q: 'ሰበረች', language: 'am', page: 1, limit: 5 }).items;
    assert.deepEqual(hits.map((i) => [i.exactForm, i.matchType]), [['ሰበረ', 'form']], 'an inflected form finds its entry');
    const sebere = snap.entry(String(hits[0].id));
    assert.deepEqual(sebere?.inflections?.map((x) => [x.total, x.source.id, x.licence.spdx, x.forms.slice(0, 2)]), [
      [
        4,
        'unimorph-am',
        'CC-BY-SA-3.0',
        [
          { form: 'ሰበረ', features: 'V;PFV;3;SG;MASC' },
          { form: 'መስበር', features: 'V.MSDR' },
        ],
      ],
    ]);
    assert.equal(sebere?.source.id, 'wiktionary-am', 'merged into the Wiktionary entry of the same lemma');
    const rich = snap.search({ q: 'ሀብታሞች', language: 'am', page: 1, limit: 5 }).items;
    assert.deepEqual(rich.map((i) => [i.exactForm, i.partOfSpeech, i.glosses, i.matchType]), [['ሀብታም', 'adjective', ['rich', 'wealthy'], 'form']]);
  });
});
