// Normalisation and search folding (services/shared/text.ts), the policy of docs/normalisation.md.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { fold, glossKeys, hasDiacritics, looseKey, normalise, searchTokens, slugBase } from '../../services/shared/text.ts';

describe('normalise', () => {
  it('normalise - composes to NFC and orders combining marks canonically', () => {
    // e + grave + dot below (non-canonical order) and e + dot below + grave are the same letter.
    assert.equal(normalise('e\u0300\u0323'), normalise('e\u0323\u0300'));
    assert.equal(normalise('e\u0323\u0300'), '\u1eb9\u0300');
    assert.equal(normalise('o\u0323'), 'ọ');
  });
  it('normalise - maps U+0340/U+0341 to U+0300/U+0301 and U+0329 to the underdot', () => {
    assert.equal(normalise('a\u0340'), 'à');
    assert.equal(normalise('a\u0341'), 'á');
    assert.equal(normalise('e\u0329'), 'ẹ');
  });
  it('normalise - trims and collapses whitespace, drops invisibles, keeps tones and case', () => {
    assert.equal(normalise('  ebe \u00a0 à\t'), 'ebe à');
    assert.equal(normalise('a\u200bb'), 'ab');
    assert.equal(normalise('Ọlọ́run'), 'Ọlọ́run'.normalize('NFC'));
  });
});

describe('fold', () => {
  it('fold - removes tones, underdots, macrons and dots above', () => {
    const table: [string, string][] = [
      ['ẹ', 'e'], ['ọ', 'o'], ['ṣ', 's'], ['ị', 'i'], ['ụ', 'u'], ['ṅ', 'n'], ['ā', 'a'],
      ['ọ̀run', 'orun'], ['egō', 'ego'], ['mmilī', 'mmili'], ['Ọlọ́run', 'olorun'], ['àjàò pụpa', 'ajao pupa'],
    ];
    for (const [input, expected] of table) assert.equal(fold(input), expected, input);
  });
  it('fold - maps syllabic nasals and ŋ to n/m', () => {
    assert.equal(fold('ń'), 'n');
    assert.equal(fold('ǹ'), 'n');
    assert.equal(fold('ḿ'), 'm');
    assert.equal(fold('m\u0300'), 'm');
    assert.equal(fold('aŋùlị'), 'anuli');
  });
  it('fold - lower-cases and ignores the leading hyphen of Igbo verb roots', () => {
    assert.equal(fold('-tu afà'), 'tu afa');
    assert.equal(fold('-lī'), 'li');
    assert.equal(fold('A-'), 'a-');
  });
  it('fold - unifies apostrophes', () => {
    assert.equal(fold('n’ebe'), fold("n'ebe"));
  });
  it('fold - makes ego find egō (Igbo Onitsha spelling)', () => {
    assert.equal(fold('ego'), fold('egō'));
  });
});

describe('looseKey', () => {
  it('looseKey - makes the standard r spelling meet the Onitsha l spelling (mmiri / mmilī)', () => {
    assert.equal(looseKey(fold('mmiri')), looseKey(fold('mmilī')));
    assert.equal(looseKey(fold('ọrụ')), looseKey(fold('ọlū')));
  });
});

describe('searchTokens', () => {
  it('searchTokens - keeps only words, so query syntax never survives', () => {
    assert.deepEqual(searchTokens('"a" * OR (b) NEAR/2 c\u0000d'), ['a', 'OR', 'b', 'NEAR', '2', 'c', 'd']);
    assert.deepEqual(searchTokens('\u0301'), []);
    assert.deepEqual(searchTokens('ọ̀run'), ['ọ̀run']);
  });
});

describe('slugBase', () => {
  it('slugBase - is ASCII, URL-safe and readable', () => {
    assert.equal(slugBase('ọ̀run'), 'orun');
    assert.equal(slugBase('ebe à'), 'ebe-a');
    assert.equal(slugBase('-tu afà'), 'tu-afa');
    assert.match(slugBase('ف'), /^u[0-9a-f-]+$/);
  });
  it('hasDiacritics - tells marked forms from plain ones', () => {
    assert.equal(hasDiacritics('omi'), false);
    assert.equal(hasDiacritics('ọ̀run'), true);
  });
});

describe('glossKeys', () => {
  it('glossKeys - splits on semicolons, drops parentheticals and a leading "to"', () => {
    assert.deepEqual(glossKeys('water; rain'), ['water', 'rain']);
    assert.deepEqual(glossKeys('to eat (food)'), ['eat']);
    assert.deepEqual(glossKeys('x'.repeat(60)), []);
  });
});
