// NTREX-128 importer: aligned lines, stand-in characters repaired or the line rejected with a reason.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { importAlignedLine } from '../../../snapshot/compiler/importers/ntrex-lines.ts';

const yo = { id: 'ntrex-yo', language: 'yo', verified: true };

describe('importAlignedLine', () => {
  it('importAlignedLine - repairs the Yoruba file\'s Greek koppa for ọ and names the line\'s document', () => {
    // Line 1 of newstest2019-ref.yor.txt and of the English source.
    const out = importAlignedLine(1, 'Àwọn ϙmϙ ẹgbé ile ìgbìmò Welsh n ṣaniyan nipa ‘wÍwò bii òmὺgò’\r', 'Welsh AMs worried about \'looking like muppets\'\r', 'bbc.381790', yo);
    assert.equal(out.kind, 'sentence', JSON.stringify(out));
    if (out.kind !== 'sentence') return;
    assert.equal(out.record.text, 'Àwọn ọmọ ẹgbé ile ìgbìmò Welsh n ṣaniyan nipa ‘wÍwò bii òmùgò’'.normalize('NFC'));
    assert.equal(out.record.translation, "Welsh AMs worried about 'looking like muppets'");
    assert.equal(out.record.reference, 'newstest2019 line 1 (bbc.381790)');
    assert.deepEqual(out.notes, ['Greek koppa (ϙ) read as ọ', 'Greek upsilon with varia (ὺ) read as ù']);
  });
  it('importAlignedLine - rejects a line with another stand-in letter, or with no English line', () => {
    assert.deepEqual(importAlignedLine(3, 'ọmọ λ', 'child', undefined, yo), { kind: 'rejected', reason: 'stand-in character from another script (U+03BB)' });
    assert.deepEqual(importAlignedLine(4, 'ọmọ', '', undefined, yo), { kind: 'rejected', reason: 'no English line aligned with it' });
  });
});
