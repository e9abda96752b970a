// Whether a word as a text writes it can be an entry's form: marks the text writes must agree; letters without marks.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { canBeWritingOf, hasToneMarks, lettersOf } from '../../../snapshot/compiler/written-forms.ts';

const nfc = (s: string): string => s.normalize('NFC');

describe('written forms', () => {
  it('canBeWritingOf - Yoruba: an untoned form can be any tone; written tones and underdots must be the form\'s', () => {
    const cases: [string, string, boolean][] = [
      ['ojo', 'òjò', true],
      ['ojo', 'ọjọ́', true],
      ['ọjọ', 'ọjọ́', true],
      ['ọjọ', 'òjò', false],
      ['tì', 'tì', true],
      ['tì', 'tí', false],
      ['ti', 'tí', true],
      ['owó', 'owó', true],
      ['owó', 'ọwọ́', false],
    ];
    for (const [written, form, expected] of cases) assert.equal(canBeWritingOf(nfc(written), nfc(form), true), expected, `${written} as ${form}`);
  });
  it("canBeWritingOf - Hausa typed without hooks can be the hooked form; a written hook must be the form's", () => {
    assert.equal(canBeWritingOf('kasa', nfc('ƙasà'), true), true);
    assert.equal(canBeWritingOf(nfc('ƙasa'), 'kasa', true), false);
  });
  it("canBeWritingOf - a language whose letters are not trusted (Igbo) compares them folded, tones still", () => {
    assert.equal(canBeWritingOf(nfc('ụlọ'), nfc('ùlò'), false), true);
  });
  it("canBeWritingOf - a verb root's hyphen is the dictionary's citation, not a letter: ga can be -ga, tones still agree", () => {
    assert.equal(canBeWritingOf('ga', '-ga', false), true);
    assert.equal(canBeWritingOf('si', nfc('-sị'), false), true);
    assert.equal(canBeWritingOf(nfc('tì'), nfc('-tí'), true), false);
  });
  it('lettersOf and hasToneMarks - underdots and hooked letters are letters, tones and length are not', () => {
    assert.equal(lettersOf(nfc('ọṣẹ́')), nfc('ọṣẹ'));
    assert.equal(lettersOf(nfc('bā̀kī')), 'baki');
    assert.equal(lettersOf(nfc('baƙī')), nfc('baƙi'));
    assert.equal(hasToneMarks(nfc('ọjọ')), false);
    assert.equal(hasToneMarks(nfc('ọjọ́')), true);
  });
});
