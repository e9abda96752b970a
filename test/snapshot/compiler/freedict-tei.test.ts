// FreeDict TEI importer: entries, plural entries as forms of their singular, the reversed edition's pairs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { FormatError } from '../../../snapshot/compiler/read/errors.ts';
import { importReversedFreedictEntry } from '../../../snapshot/compiler/importers/freedict-tei-reversed.ts';
import { importFreedictEntry, parseTeiEntries } from '../../../snapshot/compiler/importers/freedict-tei.ts';

const sw = { id: 'freedict-swh-eng', language: 'sw', verified: true };
/** Real records of swh-eng-swh-eng.tei (SOURCE.md) and eng-swh-eng-swh.tei. */
const TEI = `<TEI xmlns="http://www.tei-c.org/ns/1.0"><text><body>
<entry xml:id="mtoto"><form xml:lang="sw"><orth>mtoto</orth></form>
  <xr type="plural-form"><ref target="#watoto">watoto</ref></xr>
  <gramGrp><pos>n</pos></gramGrp><sense><def>child</def></sense></entry>
<entry type="pl" xml:id="watoto"><form xml:lang="sw"><orth>watoto</orth></form>
  <gramGrp><pos>n</pos></gramGrp>
  <sense><note type="def">Plural of <ref target="#mtoto">mtoto</ref>: child</note></sense></entry>
<entry><form><orth>10c piece</orth></form><gramGrp><pos>n</pos></gramGrp><sense><def>kikumi</def></sense></entry>
</body></text></TEI>`;

describe('importFreedictEntry', () => {
  const [mtoto, watoto, reversed] = parseTeiEntries(TEI);
  it('importFreedictEntry - an entry with its English definition and its plural as a form', () => {
    const out = importFreedictEntry(mtoto, sw);
    assert.equal(out.kind, 'lexicon', JSON.stringify(out));
    if (out.kind !== 'lexicon') return;
    assert.deepEqual([out.record.exactForm, out.record.partOfSpeech, out.record.senses], ['mtoto', 'noun', ['child']]);
    assert.deepEqual(out.record.forms, [{ form: 'watoto', kind: 'plural' }]);
  });
  it('importFreedictEntry - a plural entry leads to its singular, standing alone only if the singular is missing', () => {
    const out = importFreedictEntry(watoto, sw);
    assert.equal(out.kind, 'alt', JSON.stringify(out));
    if (out.kind !== 'alt') return;
    assert.deepEqual([out.record.form, out.record.kind, out.record.targets], ['watoto', 'plural', ['mtoto']]);
    assert.deepEqual(out.record.fallback?.senses, ['child']);
  });
  it('importReversedFreedictEntry - the English headword is the gloss of the Swahili word', () => {
    assert.deepEqual(importReversedFreedictEntry(reversed, { ...sw, id: 'freedict-eng-swh' }), [
      { kind: 'reverse', record: { sourceId: 'freedict-eng-swh', language: 'sw', form: 'kikumi', senses: ['10c piece'], partOfSpeech: 'noun' } },
    ]);
  });
  it('parseTeiEntries - a file that is not XML fails naming the file', () => {
    assert.throws(() => parseTeiEntries('<entry><orth>x</entry>', 'swh.tei'), (e: unknown) => e instanceof FormatError && /swh\.tei/.test(e.message));
  });
});
