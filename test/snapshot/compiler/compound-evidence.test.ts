// Which homograph a text's word is, told by the lexicon's compounds the text holds (snapshot/compiler/compound-evidence.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import Database from 'better-sqlite3';

import { AlignedText } from '../../../snapshot/compiler/aligned-text.ts';
import { CompoundEvidence } from '../../../snapshot/compiler/compound-evidence.ts';
import { meaningsOf } from '../../../snapshot/compiler/english-meaning.ts';
import type { Reading } from '../../../snapshot/compiler/readings.ts';

/** A staging database holding only the entries a CompoundEvidence reads. */
function stage(entries: readonly [key: string, exactForm: string, folded: string, senses: string][]): { db: Database.Database; senses: Map<string, string[]> } {
  const db = new Database(':memory:');
  db.exec("ATTACH ':memory:' AS stage; CREATE TABLE stage.entry (key TEXT, exact_form TEXT, folded TEXT, language TEXT)");
  const insert = db.prepare("INSERT INTO stage.entry VALUES (?, ?, ?, 'ig')");
  for (const [key, exactForm, folded] of entries) insert.run(key, exactForm, folded);
  return { db, senses: new Map(entries.map(([key, , , senses]) => [key, [senses]])) };
}

const text = (lines: readonly [string, string][]): AlignedText =>
  new AlignedText(lines.map(([ig, en], i) => ({ sourceId: 'ntrex-ig', language: 'ig', line: i + 1, text: ig, translation: en, reference: null })));

const readings: Reading[] = [
  { entryKey: 'onye', form: 'onye', via: 'headword' },
  { entryKey: 'who', form: 'ònye', via: 'headword' },
];

describe('compound evidence', () => {
  const { db, senses } = stage([
    ['onye', 'onye', 'onye', 'person'],
    ['who', 'ònye', 'onye', 'who?'],
    ['leader', 'onye isī', 'onye isi', 'leader; chief'],
    ['whose', 'ǹke ōnye', 'nke onye', 'whose?'],
  ]);
  const meanings = (key: string): string[][] => meaningsOf(senses.get(key) ?? []);
  const evidence = new CompoundEvidence(db, 'ig', new Set(['onye']));
  const aligned = text([
    ['Onye isi ala kwuru okwu.', 'The leader spoke.'],
    ['Onye isi ndị otu ahụ bịara.', "The party's leader came."],
    ['Ọ bụ nke onye?', 'Whose is it?'],
    ['Nwoke ahụ bụ onye nkụzi.', 'The man is a teacher.'],
  ]);

  it('CompoundEvidence.named - a compound the text holds with its meaning names the homograph it writes', () => {
    assert.deepEqual([...evidence.named('onye', readings, aligned, meanings)], [['onye', 2]]);
  });
  it("CompoundEvidence.named - a compound's word written otherwise (ōnye) names no homograph", () => {
    const onlyWhose = text([['Ọ bụ nke onye?', 'Whose is it?']]);
    assert.equal(evidence.named('onye', readings, onlyWhose, meanings).size, 0);
  });
  it('CompoundEvidence.heldLines - the compounds the text holds, whatever their English says', () => {
    const unshown = text([['Onye isi ahụ nọ ebe a.', 'He is here.']]);
    assert.equal(evidence.named('onye', readings, unshown, meanings).size, 0);
    assert.deepEqual([...evidence.heldLines('onye', readings, unshown)], [['onye', 1]]);
  });
});
