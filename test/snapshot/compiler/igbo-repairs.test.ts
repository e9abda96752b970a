// The Igbo lexicon's definitions as its parser should have left them, on real records of ig-en.json.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { decodeEntities } from '../../../snapshot/compiler/importers/html-entities.ts';
import { importIgboRecord } from '../../../snapshot/compiler/importers/igbo-api-json.ts';
import { balanceParentheses, joinAcrossRecords, restoreLostSpaces } from '../../../snapshot/compiler/importers/igbo-repairs.ts';
import type { LexRecord } from '../../../snapshot/compiler/records.ts';

const ig = { id: 'igbo-api', language: 'ig', verified: false };
const record = (key: string, raw: unknown): LexRecord => {
  const out = importIgboRecord(key, raw, ig);
  assert.equal(out.kind, 'lexicon', JSON.stringify(out));
  return out.kind === 'lexicon' ? out.record : (undefined as never);
};

describe('Igbo definition repairs', () => {
  it('joinAcrossRecords - a definition cut at a record boundary is completed from the next record (dàalụ nù)', () => {
    assert.deepEqual(joinAcrossRecords('a form of greeting (to more than one person in the same', 'place); I greet you all'), {
      joined: 'a form of greeting (to more than one person in the same place)',
      remainder: 'I greet you all',
    });
    assert.equal(joinAcrossRecords('water; rain', 'place); I greet you all'), null);
  });
  it('balanceParentheses - a cut cross-reference goes, another open parenthesis closes, a stray one goes', () => {
    assert.deepEqual(balanceParentheses('man (see separate entry'), { text: 'man', repaired: true });
    assert.deepEqual(balanceParentheses('great person (used as a praise-name'), { text: 'great person (used as a praise-name)', repaired: true });
    assert.deepEqual(balanceParentheses('more commonly used)'), { text: 'more commonly used', repaired: true });
    assert.deepEqual(balanceParentheses('water; rain'), { text: 'water; rain', repaired: false });
  });
  it("restoreLostSpaces and decodeEntities - '#' was a space; character references are text", () => {
    assert.equal(restoreLostSpaces('ikwu#ife ọ mèlù'), 'ikwu ife ọ mèlù');
    assert.equal(decodeEntities('mango (&lt; Hausa) &#233;&#x101;'), 'mango (< Hausa) éā');
  });
  it('importIgboRecord - an example fused into the definition is split out, the definition repaired (-kpù-kpù, nwokē, esusu)', () => {
    const kpukpu = record('-kpù-kpù', {
      word: '-kpù-kpù',
      wordClass: 'ADJ',
      definitions: ['motion with hands for silence O kpukpùlù aka ọgè m nà-àkwadebe ikwu#ife ọ mèlù He tried to silence me by gesturing with his hand when I was about to reveal what he had done'],
      examples: [],
      variations: [],
      stems: null,
    });
    assert.deepEqual(kpukpu.senses, ['motion with hands for silence']);
    assert.equal(kpukpu.examples[0]?.translation, 'He tried to silence me by gesturing with his hand when I was about to reveal what he had done');
    assert.deepEqual(record('nwokē', { word: 'nwokē', wordClass: 'NNC', definitions: ['man (see separate entry'], examples: [], variations: [], stems: ['oke'] }).senses, ['man']);
    const esusu = record('esusu', { word: 'esusu', wordClass: 'NNC', definitions: ['contribution to revolving benefit fund, to which each member contributes regularly and from which members profit in turn (? &lt; Yoruba)'], examples: [], variations: [], stems: null });
    assert.match(esusu.senses[0], /\(\? < Yoruba\)$/);
  });
  it("importIgboRecord - an example that names neither the word nor its meaning is left out (nwaànyì's)", () => {
    const woman = record('nwaànyì', {
      word: 'nwaànyì',
      wordClass: 'NNC',
      definitions: ['woman with abnormally large and heavy breasts'],
      examples: [
        { igbo: 'Ǹgwụlō kà ị bù', english: 'You are a powerless person (incapable of doing anything)' },
        { igbo: 'Nwokē afù bìàlù kà m nà-èsi nnī', english: 'The man came when I was cooking' },
      ],
      variations: [],
      stems: ['ala', 'kà'],
    });
    // Neither names nwaànyì, its stem ala, or a meaning (kà, its other stem, is in every Igbo sentence).
    assert.deepEqual(woman.examples, []);
  });
  it('importIgboRecord - a definition that is only an example moves to the examples (ànyị), leaving nothing to define', () => {
    const we = record('ànyị', {
      word: 'ànyị',
      wordClass: 'PRN',
      definitions: ['Ànyị nò ebe à We are here'],
      examples: [{ igbo: 'Wètalụ āyị ego āyị', english: 'Bring us our money' }],
      variations: ['àyị'],
      stems: null,
    });
    // No sense left: the cross-references step merges it into a tone variant or rejects it ("no definition (examples only)").
    assert.deepEqual(we.senses, []);
    assert.deepEqual(we.examples[0], { text: 'Ànyị nò ebe à', translation: 'We are here', reference: null, sourceId: 'igbo-api' });
  });
  it('importIgboRecord - a sense letter (B.) or a stray character (`) keying a record is no word: rejected with the reason', () => {
    const b = importIgboRecord('B.', { word: 'B.', wordClass: 'AV', definitions: ['pluck (leaves from plant)', 'be paralysed'], examples: [], variations: [], stems: ['-kpa', '-kpo'] }, ig);
    assert.deepEqual(b, { kind: 'rejected', reason: 'a sense letter (A., B. …), not a word: its definitions are senses of the verb roots it lists as stems' });
    const tick = importIgboRecord('`', {
      word: '`',
      wordClass: 'AV',
      definitions: ['Anà m èje ịkpọ nye ọkụ a gà-èji mị azù ndù afù I am going to build up the fire with which the fresh fish will be dried'],
      examples: [],
      variations: [],
      stems: ['-kpọ'],
    }, ig);
    assert.equal(tick.kind === 'rejected' && tick.reason.startsWith('headword without a letter'), true);
  });
});
