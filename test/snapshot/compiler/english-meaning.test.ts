// The English side of an aligned sentence or a token's gloss, read for an entry's meanings: inflection and senses.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { baseForms, englishBases, holdsMeaning, meaningsOf } from '../../../snapshot/compiler/english-meaning.ts';

describe('english meaning', () => {
  it('baseForms - regular and irregular inflection lead to the base a gloss uses', () => {
    for (const [word, base] of [
      ['went', 'go'],
      ['going', 'go'],
      ['children', 'child'],
      ["children's", 'child'],
      ['women', 'woman'],
      ['running', 'run'],
      ['cities', 'city'],
      ['carried', 'carry'],
      ['bigger', 'big'],
      ['was', 'be'],
    ]) {
      assert.ok(baseForms(word).includes(base), `${word} → ${base}: ${baseForms(word).join(' ')}`);
    }
    // A two-letter stem is no word without its e: used is use, not "us".
    assert.deepEqual(baseForms('used').sort(), ['use', 'used']);
  });
  it('meaningsOf - senses as their meaning words: labels, "to" and function words go; a pronoun alone stays; "of" alone and long descriptions do not', () => {
    assert.deepEqual(meaningsOf(['(transitive) to go, to walk']), [['go'], ['walk']]);
    assert.deepEqual(meaningsOf(['(independent; 3rd pers. pl.) they; them; their']), [['they'], ['them'], ['their']]);
    assert.deepEqual(meaningsOf(['of']), []);
    assert.deepEqual(meaningsOf(['woman with abnormally large and heavy breasts']), []);
    assert.deepEqual(meaningsOf(['make a noise']), [['noise']]);
  });
  it('holdsMeaning - an English line holds a meaning when it holds every meaning word, inflected or not', () => {
    const meanings = meaningsOf(['work; task']);
    assert.equal(holdsMeaning(englishBases('He went to work early.'), meanings), true);
    assert.equal(holdsMeaning(englishBases('To recover it is a duty.'), meaningsOf(['vulva; vagina'])), false);
    assert.equal(holdsMeaning(englishBases("The children's cartoon"), meaningsOf(['child'])), true);
  });
  it('holdsMeaning - a word in capitals is an acronym, not the word its letters spell; a directional particle is meaning', () => {
    // Real lines of NTREX-128 against Yoruba ra "our, ours, us" and Zulu ehla "go down".
    const us = meaningsOf(['our, ours, us']);
    assert.equal(holdsMeaning(englishBases('said following a meeting with US Energy Secretary Rick Perry in Moscow'), us), false);
    assert.equal(holdsMeaning(englishBases('with the extra cash used to help the homeless'), us), false);
    assert.equal(holdsMeaning(englishBases('and our Ryder Cup Committee'), us), true);
    assert.equal(holdsMeaning(englishBases('a member of the US Senate'), meaningsOf(['America; US'])), true);
    assert.equal(holdsMeaning(englishBases('I went to the market'), meaningsOf(['(intransitive) to go down, to descend'])), false);
  });
  it('holdsMeaning - a sense written as a question needs a line that asks one: the relative "who" is not "who?"', () => {
    const who = meaningsOf(['who?']);
    assert.deepEqual(who, [['who', '?']]);
    assert.equal(holdsMeaning(englishBases('Menga, who took a touch, scored.'), who), false);
    assert.equal(holdsMeaning(englishBases('Who knows tomorrow?'), who), true);
    assert.equal(holdsMeaning(englishBases('Who knows tomorrow?'), meaningsOf(['person'])), false);
  });
});
