// Standard Igbo spellings: the Onitsha ~ Standard correspondences, each place changed or not.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { deriveStandardSpellings, onitshaSources, standardWordCounts } from '../../../snapshot/compiler/standard-igbo.ts';

const forms = (folded: string): string[] => deriveStandardSpellings(folded).map((d) => d.form);

describe('deriveStandardSpellings', () => {
  it('deriveStandardSpellings - l → r, f → h, n → l between vowels, nn → nr (mmilī, ife, enū, nni)', () => {
    assert.deepEqual(forms('mmili'), ['mmiri']);
    assert.deepEqual(forms('ife'), ['ihe']);
    assert.deepEqual(forms('afia'), ['ahia']);
    assert.deepEqual(forms('enu'), ['elu']);
    assert.deepEqual(forms('nni'), ['nri']);
  });
  it('deriveStandardSpellings - each place may change or not, and a form without any gives nothing', () => {
    assert.deepEqual(forms('efifie').sort(), ['efihie', 'ehifie', 'ehihie']);
    assert.deepEqual(forms('ego'), []);
    assert.deepEqual(deriveStandardSpellings('ifele').find((d) => d.form === 'ihere')?.rules.sort(), ['f → h', 'l → r']);
  });
  it('onitshaSources - reads the rules backwards: the Onitsha forms a Standard word comes from', () => {
    assert.deepEqual(onitshaSources('ihe').map((d) => d.form), ['ife']);
    assert.ok(onitshaSources('mmiri').some((d) => d.form === 'mmili'));
    assert.ok(onitshaSources('nri').some((d) => d.form === 'nni'));
    assert.ok(onitshaSources('elu').some((d) => d.form === 'enu'));
  });
  it('standardWordCounts - folds the words of the text, so untoned and toned spellings count together', () => {
    const counts = standardWordCounts(['Mmiri dị ọcha.', 'mmirī n’ụlọ']);
    assert.equal(counts.get('mmiri'), 2);
    assert.equal(counts.get("n'ulo"), 1);
  });
});
