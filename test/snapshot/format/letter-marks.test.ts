// Letter marks (underdots, ṅ) told apart from tone marks, and how far two spellings of one folded key differ by them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { letterMarkDifferences, writesLetterMarks, writesToneMarks } from '../../../snapshot/format/letter-marks.ts';

const nfc = (s: string): string => s.normalize('NFC');

describe('letter marks', () => {
  it('letter marks - underdots and ṅ are letter marks, tones and length are not', () => {
    assert.equal(writesLetterMarks(nfc('bụ')), true);
    assert.equal(writesLetterMarks(nfc('ṅ')), true);
    assert.equal(writesLetterMarks(nfc('mbà')), false);
    assert.equal(writesToneMarks(nfc('mbà')), true);
    assert.equal(writesToneMarks(nfc('ọchịchị')), false);
  });

  it('letter marks - differences count letters whose marks differ, tones and a verb root\'s hyphen aside', () => {
    assert.equal(letterMarkDifferences(nfc('bụ'), nfc('-bụ')), 0);
    assert.equal(letterMarkDifferences(nfc('bụ'), nfc('-bu')), 1);
    assert.equal(letterMarkDifferences(nfc('bụ'), nfc('-bù')), 1);
    assert.equal(letterMarkDifferences(nfc('ọchịchị'), nfc('òchịchị')), 1);
    assert.equal(letterMarkDifferences(nfc('ọchịchị'), nfc('òchìchì')), 3);
    assert.equal(letterMarkDifferences(nfc('ọjọ'), nfc('ọjọ́')), 0);
    assert.equal(letterMarkDifferences('abc', 'ab'), Number.POSITIVE_INFINITY);
  });
});
