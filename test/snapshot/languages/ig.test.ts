// Igbo's rules (snapshot/languages/ig.ts): the l/r loose key, and the Onitsha ~ Standard correspondences, each
// place changed or not.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { deriveStandardSpellings, lexiconSources, standardWordCounts } from '../../../snapshot/compiler/standard-spellings.ts';
import { fold } from '../../../snapshot/format/text.ts';
import { igbo } from '../../../snapshot/languages/ig.ts';

const rules = igbo.standardSpellings?.rules ?? [];
const looseKey = (text: string): string | undefined => igbo.looseKey?.(fold(text));
const forms = (folded: string): string[] => deriveStandardSpellings(folded, rules).map((d) => d.form);

describe('igbo', () => {
  it('igbo - the loose key makes the standard r spelling meet the Onitsha l spelling (mmiri / mmilī)', () => {
    assert.equal(looseKey('mmiri'), looseKey('mmilī'));
    assert.equal(looseKey('ọrụ'), looseKey('ọlū'));
    assert.equal(fold('aŋùlị'), 'anuli', 'Williamson writes ŋ where Standard Igbo writes ṅ');
  });
  it('igbo - derives Standard spellings by l → r, f → h, n → l between vowels, nn → nr (mmilī, ife, enū, nni)', () => {
    assert.deepEqual(forms('mmili'), ['mmiri']);
    assert.deepEqual(forms('ife'), ['ihe']);
    assert.deepEqual(forms('afia'), ['ahia']);
    assert.deepEqual(forms('enu'), ['elu']);
    assert.deepEqual(forms('nni'), ['nri']);
  });
  it('igbo - each place may change or not, and a form without any gives nothing', () => {
    assert.deepEqual(forms('efifie').sort(), ['efihie', 'ehifie', 'ehihie']);
    assert.deepEqual(forms('ego'), []);
    assert.deepEqual(deriveStandardSpellings('ifele', rules).find((d) => d.form === 'ihere')?.rules.sort(), ['f → h', 'l → r']);
  });
  it('igbo - reads the rules backwards: the Onitsha forms a Standard word comes from', () => {
    assert.deepEqual(lexiconSources('ihe', rules).map((d) => d.form), ['ife']);
    assert.ok(lexiconSources('mmiri', rules).some((d) => d.form === 'mmili'));
    assert.ok(lexiconSources('nri', rules).some((d) => d.form === 'nni'));
    assert.ok(lexiconSources('elu', rules).some((d) => d.form === 'enu'));
  });
  it('igbo - the words of Standard text are folded, so untoned and toned spellings count together', () => {
    const counts = standardWordCounts(['Mmiri dị ọcha.', 'mmirī n’ụlọ']);
    assert.equal(counts.get('mmiri'), 2);
    assert.equal(counts.get("n'ulo"), 1);
  });
});
