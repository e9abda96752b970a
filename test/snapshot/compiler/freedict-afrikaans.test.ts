// FreeDict Afrikaans (afr-eng, eng-afr): a translation list without parts of speech, whose senses join the
// Wiktionary entries of the same word, with their own source and licence, or make new entries.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

import { importReversedFreedictEntry } from '../../../snapshot/compiler/importers/freedict-tei-reversed.ts';
import { REPEATED_HEADWORD, importFreedictTranslations, parseTeiEntries } from '../../../snapshot/compiler/importers/freedict-tei.ts';
import { buildSnapshot } from '../../../snapshot/compiler/pipeline.ts';
import { REVERSE_REJECTIONS } from '../../../snapshot/compiler/reverse.ts';
import { openSnapshot } from '../../../snapshot/reader/reader.ts';
import { tempDir } from './build-helpers.ts';

const af = { id: 'freedict-afr-eng', language: 'af', verified: false };
const tei = (entries: string): string => `<TEI xmlns="http://www.tei-c.org/ns/1.0"><text><body>${entries}</body></text></TEI>`;
const entry = (orth: string, senses: string[][]): string =>
  `<entry><form><orth>${orth}</orth></form>${senses.map((s) => `<sense>${s.map((q) => `<cit type="trans"><quote>${q}</quote></cit>`).join('')}</sense>`).join('')}</entry>`;

/** Real entries of afr-eng-afr-eng.tei and eng-afr-eng-afr.tei (SOURCE.md), verbatim but for the layout. */
const AFR_ENG = tei(
  [
    entry('hond', [['dog']]),
    entry('sê', [['say', 'tell']]),
    entry('Afrikaans', [['African'], ['Afrikaans']]),
    entry('loop', [['flow'], ['function', 'operate', 'run', 'work']]),
    entry('kat', [['cat']]),
    entry('bak,', [['jug', 'box', 'container', 'vessel']]),
    entry('A\u2010bom', [['atom bomb']]),
    entry('...', [['... ago']]),
  ].join(''),
);
const ENG_AFR = tei([entry('dog', [['hond']]), entry('walk', [['stap'], ['begaan', 'opgaan']]), entry('...', [['... gelede']])].join(''));
/** Real lines of wiktionary-africa/afrikaans-english-wiktionary.tsv (loop's noun senses cut to two). */
const WIKTIONARY = [
  'hond|hondjies|hondjie|honde\t<i>noun</i><br><ol><li>dog</li></ol>',
  'sê|seg|geseh|gesê|geseg|seh|seggende\t<i>verb</i><br><ol><li>(transitive) to say</li></ol>',
  'kat|katte\t<i>noun</i><br><ol><li>cat</li></ol>',
  'loop|lopende|geloop|lopie|lopies|lope\t<i>verb</i><br><ol><li>(intransitive) to walk</li></ol><br><i>noun</i><br><ol><li>walking, gait</li><li>(of events) course</li></ol>',
];

describe('importFreedictTranslations', () => {
  const [hond, , afrikaans, , , bak, bom, dots] = parseTeiEntries(AFR_ENG);
  it('importFreedictTranslations - each sense is its translations as one gloss, with no part of speech', () => {
    assert.deepEqual(importFreedictTranslations(hond, af), { kind: 'reverse', record: { sourceId: af.id, language: 'af', form: 'hond', senses: ['dog'], partOfSpeech: null } });
    const out = importFreedictTranslations(afrikaans, af);
    assert.deepEqual(out.kind === 'reverse' && out.record.senses, ['African', 'Afrikaans']);
  });
  it("importFreedictTranslations - the source's defects: U+2010 hyphens, a trailing comma, a phrase's placeholder", () => {
    const form = (o: ReturnType<typeof importFreedictTranslations>): string => (o.kind === 'reverse' ? o.record.form : o.reason);
    assert.equal(form(importFreedictTranslations(bom, af)), 'A-bom');
    assert.equal(form(importFreedictTranslations(bak, af)), 'bak');
    assert.deepEqual(importFreedictTranslations(dots, af), { kind: 'rejected', reason: "a phrase's placeholder (...), not a word" });
  });
  it('importFreedictTranslations - a later entry of a headword is a phrase cut down to it, and refused', () => {
    const [gaan, gaanStaan] = parseTeiEntries(tei([entry('gaan', [['go']]), entry('gaan', [['halt', 'come to a halt', 'stop']])].join('')));
    const seen = new Set<string>();
    assert.equal(importFreedictTranslations(gaan, af, seen).kind, 'reverse');
    assert.deepEqual(importFreedictTranslations(gaanStaan, af, seen), { kind: 'rejected', reason: REPEATED_HEADWORD });
  });
  it('importReversedFreedictEntry - eng-afr: one pair per Afrikaans translation, each a record of the report', () => {
    const [dog, walk, dots2] = parseTeiEntries(ENG_AFR);
    const rev = { ...af, id: 'freedict-eng-afr' };
    assert.deepEqual(importReversedFreedictEntry(dog, rev), [{ kind: 'reverse', record: { sourceId: rev.id, language: 'af', form: 'hond', senses: ['dog'], partOfSpeech: null } }]);
    assert.deepEqual(
      importReversedFreedictEntry(walk, rev).map((o) => (o.kind === 'reverse' ? o.record.form : o.reason)),
      ['stap', 'begaan', 'opgaan'],
    );
    assert.deepEqual(importReversedFreedictEntry(dots2, rev), [{ kind: 'rejected', reason: "a phrase's placeholder (...), not a word" }]);
  });
});

describe('FreeDict Afrikaans in the build', () => {
  it('FreeDict Afrikaans in the build - senses join the entry of the same word, new words become entries, and every record is reported', async (t) => {
    const dir = tempDir(t, 'freedict-af-');
    const corpora = path.join(dir, 'corpora');
    mkdirSync(corpora);
    writeFileSync(path.join(corpora, 'wiktionary-af.tsv'), `${WIKTIONARY.join('\n')}\n`);
    writeFileSync(path.join(corpora, 'afr-eng.tei'), AFR_ENG);
    writeFileSync(path.join(corpora, 'eng-afr.tei'), ENG_AFR);
    const cc = { spdx: 'CC-BY-SA-3.0', name: 'CC BY-SA 3.0', url: 'https://creativecommons.org/licenses/by-sa/3.0/' };
    const gpl = { spdx: 'GPL-2.0-or-later', name: 'GNU General Public License v2 or later', url: 'https://www.gnu.org/licenses/old-licenses/gpl-2.0.html' };
    const common = { language: 'af', url: 'https://freedict.org/', role: 'lexicon', verified: false };
    const sourcesFile = path.join(dir, 'sources.json');
    writeFileSync(
      sourcesFile,
      JSON.stringify({
        activeAtGlossedEntries: 2,
        sources: [
          { ...common, id: 'wiktionary-af', name: 'Wiktionary', importer: 'wiktionary-tsv', file: 'wiktionary-af.tsv', licence: cc, attribution: 'Wiktionary contributors.' },
          { ...common, id: 'freedict-afr-eng', name: 'FreeDict afr-eng', importer: 'freedict-tei', file: 'afr-eng.tei', licence: gpl, attribution: 'FreeDict.', mergeByHeadword: true },
          { ...common, id: 'freedict-eng-afr', name: 'FreeDict eng-afr', importer: 'freedict-tei-reversed', file: 'eng-afr.tei', licence: gpl, attribution: 'FreeDict.' },
        ],
      }),
    );
    const languagesFile = path.join(dir, 'languages.json');
    writeFileSync(languagesFile, JSON.stringify({ languages: [{ code: 'af', slug: 'afrikaans', name: 'Afrikaans', nativeName: 'Afrikaans' }] }));
    const out = path.join(dir, 's.sqlite');
    const { report } = await buildSnapshot({ out, corpora, sourcesFile, languagesFile, date: '2026-01-01' });
    const counts = (id: string) => {
      const s = report.sources.find((x) => x.source === id);
      return s && { read: s.read, imported: s.imported, merged: s.mergedBy, rejected: s.rejectedBy };
    };
    assert.deepEqual(counts('freedict-afr-eng'), {
      read: 8,
      // Afrikaans, bak, A-bom: new words.
      imported: 3,
      merged: { 'same word and gloss as in the forward dictionary or the lexicon': 2, 'English gloss added to the entry of the word': 1 },
      rejected: { "a phrase's placeholder (...), not a word": 1, [REVERSE_REJECTIONS.unplaced]: 1 },
    });
    // dog → hond is said already; walk → stap, begaan, opgaan are new words; "... gelede" is no word.
    assert.deepEqual(counts('freedict-eng-afr'), {
      read: 5,
      imported: 3,
      merged: { 'same word and gloss as in the forward dictionary or the lexicon': 1 },
      rejected: { "a phrase's placeholder (...), not a word": 1 },
    });
    const snap = openSnapshot(out);
    t.after(() => snap.close());
    const hit = (q: string) => snap.search({ q, language: 'af', page: 1, limit: 5 }).items.find((i) => i.exactForm === q);
    const word = (q: string) => {
      const h = hit(q);
      return h ? snap.entry(String(h.id)) : undefined;
    };
    const hond = word('hond');
    assert.deepEqual(hond?.senses, [{ number: 1, definition: 'dog' }], 'the same sense is not repeated, and the entry stays Wiktionary\'s');
    assert.deepEqual(
      word('sê')?.senses.map((x) => [x.definition, x.source?.id ?? null, x.licence?.spdx ?? null]),
      [
        ['(transitive) to say', null, null],
        ['say, tell', 'freedict-afr-eng', 'GPL-2.0-or-later'],
      ],
      "a sense added to Wiktionary's entry names its own source and licence",
    );
    const afrikaans = word('Afrikaans');
    assert.deepEqual(
      afrikaans && [afrikaans.partOfSpeech, afrikaans.source.id, afrikaans.licence.spdx, afrikaans.glosses],
      ['other', 'freedict-afr-eng', 'GPL-2.0-or-later', ['African', 'Afrikaans']],
      'a new word: no part of speech in the source, served as other, under its own licence',
    );
    assert.equal(word('bak')?.glosses[0], 'jug, box, container, vessel');
  });
});
