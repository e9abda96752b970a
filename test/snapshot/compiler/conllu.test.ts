// CoNLL-U importer: sentences, translations and lemmas; files that are not CoNLL-U are refused.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { parseConllu } from '../../../snapshot/compiler/importers/conllu.ts';
import { FormatError } from '../../../snapshot/compiler/read/errors.ts';

const source = { id: 'ud-yoruba-ytb', language: 'yo', verified: true };
const TEXT = [
  '# newdoc id = GEN_1',
  '# sent_id = GEN_1.1',
  '# text = Ọlọ́run dá ọ̀run.',
  '# text_en = God made heaven.',
  '1\tỌlọ́run\tọlọ́run\tNOUN\t_\t_\t2\tnsubj\t_\tGloss=god',
  '2-3\tdá\t_\t_\t_\t_\t_\t_\t_\t_',
  '2\tdá\tdá\tVERB\t_\t_\t0\troot\t_\tGloss=made',
  '3\tọ̀run\tọ̀run\tNOUN\t_\t_\t2\tobj\t_\tGloss=heaven|SpaceAfter=No',
  '4\t.\t.\tPUNCT\t_\t_\t2\tpunct\t_\tGloss=.',
  '',
  '# sent_id = GEN_1.2',
  '1\tomi\tomi\tNOUN\t_\t_\t0\troot\t_\t_',
  '',
];

describe('parseConllu', () => {
  it('parseConllu - yields sentences with text, translation, id and lemmas (punctuation skipped)', () => {
    const out = [...parseConllu(TEXT, source)];
    assert.equal(out.length, 2);
    const first = out[0];
    assert.equal(first.kind, 'sentence');
    if (first.kind !== 'sentence') return;
    assert.equal(first.record.id, 'GEN_1.1');
    assert.equal(first.record.translation, 'God made heaven.');
    assert.deepEqual(first.record.lemmas.map((l) => l.lemma), ['ọlọ́run', 'dá', 'ọ̀run'].map((s) => s.normalize('NFC')));
    assert.deepEqual(first.record.lemmas.map((l) => l.partOfSpeech), ['noun', 'verb', 'noun']);
  });
  it('parseConllu - rejects a sentence without # text, with a reason', () => {
    const out = [...parseConllu(TEXT, source)];
    assert.deepEqual(out[1], { kind: 'rejected', reason: 'sentence without # text' });
  });
  it('parseConllu - refuses a file that is not CoNLL-U, naming file and line', () => {
    assert.throws(() => [...parseConllu(['{"a": 1}'], source, 'x.conllu')], (e: unknown) => e instanceof FormatError && /x\.conllu:1/.test(e.message));
  });
});
