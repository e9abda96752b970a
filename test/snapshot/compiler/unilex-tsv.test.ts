// Unilex importer: forms kept as written, mis-encoded lines rejected with a reason, a language's own letters accepted,
// old orthography modernised, header checked.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { FormatError } from '../../../snapshot/compiler/read/errors.ts';
import { importUnilexLine } from '../../../snapshot/compiler/importers/unilex-tsv.ts';

const yo = { id: 'unilex-frequency-yo', language: 'yo', verified: false };

describe('importUnilexLine', () => {
  it('importUnilexLine - skips header, comments and blank lines', () => {
    assert.deepEqual(importUnilexLine('Form\tFrequency', 1, yo), { kind: 'skip' });
    assert.deepEqual(importUnilexLine('# Corpus-Size: 264957', 3, yo), { kind: 'skip' });
    assert.deepEqual(importUnilexLine('', 2, yo), { kind: 'skip' });
  });
  it('importUnilexLine - keeps the form as written, tone marks and all (its entry is decided by them)', () => {
    const out = importUnilexLine('ààbò\t33967', 9, yo);
    assert.deepEqual(out, { kind: 'frequency', record: { sourceId: yo.id, language: 'yo', form: 'ààbò', frequency: 33967 }, notes: [] });
  });
  it("importUnilexLine - accepts Hausa's hooked letters, in either case (ƙasa, Ɗan)", () => {
    const ha = { id: 'unilex-frequency-ha', language: 'ha', verified: false };
    for (const form of ['ƙasa', 'ɗan', 'ɓata', 'ƴaƴa', 'Ɗan', 'Ƙasar']) assert.equal(importUnilexLine(`${form}\t100`, 9, ha).kind, 'frequency', form);
    assert.equal(importUnilexLine('ƙasa\t100', 9, yo).kind, 'rejected', 'not a Yoruba letter');
  });
  it('importUnilexLine - rejects mis-encoded lines (Ä, ã) naming the character', () => {
    for (const line of ['Ä\t11322', 'ã\t64161', 'ãdọta\t7548']) {
      const out = importUnilexLine(line, 10, yo);
      assert.equal(out.kind, 'rejected', line);
      assert.match((out as { reason: string }).reason, /^mis-encoded or foreign character \(U\+03/);
    }
  });
  it('importUnilexLine - maps old Yoruba orthography to the modern spelling', () => {
    const out = importUnilexLine('nwọn\t10454526', 12, yo);
    assert.equal(out.kind, 'frequency');
    assert.equal((out as { record: { form: string } }).record.form, 'won');
    assert.deepEqual((out as { notes: string[] }).notes, ['old orthography mapped to the modern spelling']);
    assert.equal((importUnilexLine('li\t12262367', 13, yo) as { record: { form: string } }).record.form, 'ni');
  });
  it('importUnilexLine - rejects malformed lines', () => {
    assert.deepEqual(importUnilexLine('broken line', 5, yo), { kind: 'rejected', reason: 'malformed line (not Form<TAB>Frequency)' });
  });
  it('importUnilexLine - refuses a file without the Unilex header', () => {
    assert.throws(() => importUnilexLine('{"json": true}', 1, yo, 'yo.txt'), (e: unknown) => e instanceof FormatError && /yo\.txt:1/.test(e.message));
  });
});
