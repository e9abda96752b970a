// The languages' inflection analyses (snapshot/languages: `analyse`) on real forms: each proposes the headword a form
// inflects, with the fewest parts taken off first; what the lexicon holds is checked by the reader's tests.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { fold, normalise } from '../../../snapshot/format/text.ts';
import { analyseAfrikaans } from '../../../snapshot/languages/af.ts';
import { analyseIgbo } from '../../../snapshot/languages/ig-inflection.ts';
import { analyseNguni } from '../../../snapshot/languages/nguni-inflection.ts';
import type { Analysis } from '../../../snapshot/languages/rules.ts';
import { analyseSwahili } from '../../../snapshot/languages/sw-inflection.ts';

/** The lemmas of the likeliest readings: the fewest parts that propose `lemma`, or none. */
function partsFor(readings: readonly Analysis[], lemma: string): number | undefined {
  const found = readings.filter((r) => r.lemma === lemma).map((r) => r.parts);
  return found.length === 0 ? undefined : Math.min(...found);
}
const sw = (form: string): Analysis[] => analyseSwahili(fold(form));
const nguni = (form: string): Analysis[] => analyseNguni(fold(form));
const ig = (form: string): Analysis[] => analyseIgbo(fold(form), normalise(form).toLowerCase());
const af = (form: string): Analysis[] => analyseAfrikaans(fold(form));

describe('inflection analysis', () => {
  it('inflection analysis - Swahili subject and tense markers before a stem lead to the infinitive', () => {
    assert.equal(partsFor(sw('anasoma'), 'kusoma'), 2, 'a- she, -na- present');
    assert.equal(partsFor(sw('ninakula'), 'kula'), 2, 'a one-syllable verb keeps ku- after -na-');
    assert.equal(partsFor(sw('walikwenda'), 'kwenda'), 2, 'and kw- after -li-');
    assert.equal(partsFor(sw('nimekupenda'), 'kupenda'), 3, 'ni- -me- ku- (you) penda');
    assert.equal(partsFor(sw('hasomi'), 'kusoma'), 2, 'the present negative ends in -i');
    assert.equal(partsFor(sw('akiwa'), 'kuwa'), 2, '-ki- drops the ku- of a one-syllable verb');
    assert.equal(partsFor(sw('kilichotokea'), 'kutokea'), 3, 'with the relative -cho-');
  });

  it('inflection analysis - Swahili extensions and noun classes are taken off one at a time', () => {
    assert.equal(partsFor(sw('alipigwa'), 'kupiga'), 3, 'the passive -w-');
    assert.equal(partsFor(sw('imesimamishwa'), 'kusimama'), 3, 'the causative passive -ishw-');
    assert.equal(partsFor(sw('watoto'), 'mtoto'), 1, 'class 2 → 1');
    assert.equal(partsFor(sw('vitabu'), 'kitabu'), 1, 'class 8 → 7');
    assert.equal(partsFor(sw('nchini'), 'nchi'), 1, 'the locative -ni');
  });

  it('inflection analysis - Swahili function words and a one-syllable stem after -na- are not read', () => {
    assert.deepEqual(sw('ana'), [], 'three letters: a word of its own');
    assert.equal(partsFor(sw('alipa'), 'kupa'), undefined, 'a-li-pa would need ku-: alipa is -lipa "pay"');
  });

  it('inflection analysis - Zulu and Xhosa prefixes, endings, plurals and concords', () => {
    assert.equal(partsFor(nguni('ndiyabulela'), 'bulela'), 2, 'Xhosa ndi- (I) -ya- (present)');
    assert.equal(partsFor(nguni('ngiyabonga'), 'bonga'), 2, 'Zulu ngi- -ya-');
    assert.equal(partsFor(nguni('ngihambile'), 'hamba'), 2, 'the perfect -ile');
    assert.equal(partsFor(nguni('ukuthi'), 'thi'), 1, 'the infinitive of -thi "say", whose stem keeps its -i');
    assert.equal(partsFor(nguni('abantu'), 'umuntu'), 1, 'class 2 → 1');
    assert.equal(partsFor(nguni('iindlela'), 'indlela'), 1, 'Xhosa class 10 ii- → 9');
    assert.equal(partsFor(nguni('nabantu'), 'abantu'), 1, 'na- fused with the noun\'s a-');
    assert.equal(partsFor(nguni('ngokuthi'), 'thi'), 2, 'nga- + the infinitive');
    assert.equal(partsFor(nguni('nibahle'), 'hle'), 1, 'an adjective in agreement, one part');
  });

  it('inflection analysis - Nguni words that are no such forms are not read so', () => {
    assert.equal(partsFor(nguni('ngaleyo'), 'ala'), undefined, 'ngaleyo "with that": -yo follows -a or -ile only');
    assert.ok(nguni('ukuya').every((r) => r.lemma !== 'ya' || !r.partsOfSpeech.includes('verb')), 'two-letter verb stems are not proposed');
    assert.deepEqual(nguni('aba'), []);
  });

  it('inflection analysis - Igbo past, negative, perfect, infinitive and n\', from the letters the text writes', () => {
    assert.equal(partsFor(ig('nwere'), 'nwe'), 1, 'the past -rV copies the root\'s last vowel');
    assert.equal(partsFor(ig('kwuru'), 'kwu'), 1);
    assert.equal(partsFor(ig('enweghị'), 'nwe'), 2, 'e- … -ghị');
    assert.equal(partsFor(ig('ime'), 'me'), 1, 'the infinitive i-');
    assert.equal(partsFor(ig('hụrụ'), 'fu'), 2, 'Standard h is Onitsha f: -fụ "see"');
    assert.equal(partsFor(ig("n'aka"), 'aka'), 1);
    assert.equal(ig('gụrụ').find((r) => r.lemma === 'gu')?.written, 'gụ', 'the root as the text writes its letters');
  });

  it('inflection analysis - Igbo forms whose vowel does not copy the root\'s, and a- words, are not read', () => {
    assert.equal(partsFor(ig('mara'), 'ma'), 1);
    assert.equal(partsFor(ig('mere'), 'ma'), undefined, '-rV copies the last vowel: mere is -me');
    assert.equal(partsFor(ig('ahụ'), 'hu'), undefined, 'ahụ "that" is no participle');
  });

  it('inflection analysis - Igbo prefixes keep to vowel harmony where the letters show it', () => {
    assert.equal(partsFor(ig('era'), 'ra'), undefined, 'e- does not go before a');
    assert.equal(partsFor(ig('atule'), 'tu'), undefined, 'a- … -le is no perfect: atule is a-tụle "consider"');
    assert.equal(partsFor(ig('ekwela'), 'kwe'), 2, 'the perfect -la after e-');
    assert.equal(partsFor(ig('adịla'), 'di'), 2, 'a- … -la');
    assert.equal(partsFor(ig('ibanye'), 'banye'), 1, 'i- before a: the text leaves the underdot of ị- off');
    assert.equal(partsFor(ig('ebupuru'), 'bupu'), 2);
  });

  it('inflection analysis - an Igbo root in the Onitsha spelling must have the underdots the text writes', () => {
    const onitsha = ig('daruru').find((r) => r.lemma === 'dalu');
    assert.ok(onitsha?.accepts, 'the reading checks the entry\'s letters');
    assert.equal(onitsha.accepts('-dàlụ'), false, 'the text writes no underdot');
    assert.equal(onitsha.accepts('-dalu'), true);
    assert.equal(ig('hụrụ').find((r) => r.lemma === 'fu')?.accepts?.('-fụ'), true);
  });

  it('inflection analysis - a Zulu subject and object that spell a noun class prefix are not read as a verb', () => {
    const verbs = (form: string): Analysis[] => nguni(form).filter((r) => r.partsOfSpeech.includes('verb'));
    assert.equal(partsFor(verbs('izindiza'), 'ndiza'), undefined, 'izindiza "aeroplanes", not i- zi- -ndiza "it flies them"');
    assert.equal(partsFor(verbs('isibona'), 'bona'), undefined);
    assert.equal(partsFor(verbs('iwabulala'), 'bulala'), 2, 'i- wa- is no noun prefix');
    assert.equal(partsFor(nguni('izinto'), 'into'), 1, 'the plural reading stays');
  });

  it('inflection analysis - Afrikaans plurals, diminutives, superlatives and participles by the spelling rules', () => {
    assert.equal(partsFor(af('boeke'), 'boek'), 1);
    assert.equal(partsFor(af('katte'), 'kat'), 1, 'a doubled consonant after a short vowel');
    assert.equal(partsFor(af('bome'), 'boom'), 1, 'a long vowel written single in the open syllable');
    assert.equal(partsFor(af('briewe'), 'brief'), 1, '-w- back to -f');
    assert.equal(partsFor(af('tafels'), 'tafel'), 1);
    assert.equal(partsFor(af('kaartjie'), 'kaart'), 1);
    assert.equal(partsFor(af('grootste'), 'groot'), 1);
    assert.equal(partsFor(af('gespeel'), 'speel'), 1);
    assert.equal(partsFor(af('aangekom'), 'aankom'), 1, 'a separable particle before ge-');
  });

  it('inflection analysis - Afrikaans forms the spelling rules rule out', () => {
    assert.equal(partsFor(af('role'), 'rol'), undefined, 'the plural of rol is rolle');
    assert.equal(partsFor(af('visie'), 'vis'), undefined, 'visie "vision" is no diminutive of vis (vissie)');
    assert.equal(partsFor(af('grootte'), 'groot'), undefined, 'no doubled consonant after a long vowel');
    assert.equal(partsFor(af('boss'), 'bos'), undefined, 'a one-syllable word with -s: English, not a plural');
    assert.equal(partsFor(af('analogies'), 'analogie'), undefined, 'a stressed -ie takes -ë; -ies is an adjective');
  });
});
