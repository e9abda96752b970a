// Streaming reader of one big JSON object: values across chunk boundaries, and format errors.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

import { FormatError } from '../../../snapshot/compiler/read/errors.ts';
import { readJsonObjectEntries, readLines } from '../../../snapshot/compiler/read/files.ts';
import { tempDir } from './build-helpers.ts';

describe('readJsonObjectEntries', () => {
  it('readJsonObjectEntries - streams every key and value of a file larger than one read chunk', (t) => {
    const dir = tempDir(t);
    const file = path.join(dir, 'big.json');
    const object: Record<string, unknown> = {};
    // ~3 MB with multi-byte characters, escaped quotes and braces inside strings.
    for (let i = 0; i < 20_000; i++) object[`ọ̀run ${i} "q" {`] = [{ word: `egō ${i}`, definitions: ['a } b ] c', `x\\"y ${i}`], n: i, ok: true }];
    object.tail = 12;
    writeFileSync(file, `\ufeff${JSON.stringify(object, null, 1)}\n`);
    const seen = [...readJsonObjectEntries(file)];
    assert.equal(seen.length, 20_001);
    assert.deepEqual(Object.fromEntries(seen), object);
  });
  it('readJsonObjectEntries - refuses files that are not one JSON object, naming the file', (t) => {
    const dir = tempDir(t);
    for (const [name, text] of [
      ['array.json', '[1, 2]'],
      ['conllu.json', '# text = x\n1\tx'],
      ['truncated.json', '{"a": [1, 2'],
      ['trailing.json', '{"a": 1} x'],
    ]) {
      const file = path.join(dir, name);
      writeFileSync(file, text);
      assert.throws(() => [...readJsonObjectEntries(file)], (e: unknown) => e instanceof FormatError && e.message.startsWith(file), name);
    }
  });
});

describe('readLines', () => {
  it('readLines - yields lines across chunk boundaries without cutting characters', (t) => {
    const dir = tempDir(t);
    const file = path.join(dir, 'lines.txt');
    const lines = Array.from({ length: 100_000 }, (_, i) => `ọ̀run\t${i}`);
    writeFileSync(file, `${lines.join('\n')}\n`);
    assert.deepEqual([...readLines(file)], lines);
  });
});
