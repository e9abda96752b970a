// StarDict reader: a ustar archive holding .idx, .dict.dz and .syn; the real Zulu archive's counts.
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';

import { readStarDict, untar } from '../../../snapshot/compiler/read/stardict.ts';
import { SHARED_CORPORA, tempDir } from './build-helpers.ts';

/** One ustar member: a 512-byte header (name, octal size, type 0, checksum) and the data padded to 512. */
function member(name: string, data: Buffer): Buffer {
  const header = Buffer.alloc(512);
  header.write(name, 0, 'utf8');
  header.write('0000644\0', 100);
  header.write(`${data.length.toString(8).padStart(11, '0')}\0`, 124);
  header.write('0', 156);
  header.write('ustar\0', 257);
  header.fill(' ', 148, 156);
  let sum = 0;
  for (const b of header) sum += b;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return Buffer.concat([header, data, Buffer.alloc((512 - (data.length % 512)) % 512)]);
}

function archive(): Buffer {
  const articles = ['<i>verb</i><br><ol><li>to go</li></ol>', '<i>noun</i><br><ol><li>person</li></ol>'];
  const dict = Buffer.from(articles.join(''));
  const idx = Buffer.concat(
    [['hamba', 0, Buffer.byteLength(articles[0])], ['umuntu', Buffer.byteLength(articles[0]), Buffer.byteLength(articles[1])]].map(([word, offset, size]) => {
      const tail = Buffer.alloc(8);
      tail.writeUInt32BE(offset as number, 0);
      tail.writeUInt32BE(size as number, 4);
      return Buffer.concat([Buffer.from(`${word as string}\0`), tail]);
    }),
  );
  const syn = Buffer.concat(
    [['abahamba', 0], ['abantu', 1]].map(([form, index]) => {
      const tail = Buffer.alloc(4);
      tail.writeUInt32BE(index as number, 0);
      return Buffer.concat([Buffer.from(`${form as string}\0`), tail]);
    }),
  );
  return gzipSync(Buffer.concat([member('d/x.idx', idx), member('d/x.dict.dz', gzipSync(dict)), member('d/x.syn', syn), Buffer.alloc(1024)]));
}

describe('readStarDict', () => {
  it('readStarDict - articles in .idx order and synonyms pointing at them', (t) => {
    const file = path.join(tempDir(t), 'x.tar.gz');
    writeFileSync(file, archive());
    const dict = readStarDict(file);
    assert.deepEqual(dict.articles.map((a) => a.headword), ['hamba', 'umuntu']);
    assert.equal(dict.articles[1].article, '<i>noun</i><br><ol><li>person</li></ol>');
    assert.deepEqual(dict.synonyms, [{ form: 'abahamba', article: 0 }, { form: 'abantu', article: 1 }]);
  });
  it('untar - stops at the end blocks and keeps regular files by name', () => {
    const files = untar(Buffer.concat([member('a.txt', Buffer.from('hello')), Buffer.alloc(1024)]));
    assert.deepEqual([...files.keys()], ['a.txt']);
    assert.equal(files.get('a.txt')?.toString(), 'hello');
  });
  const real = path.join(SHARED_CORPORA, 'wiktionary-africa', 'zulu-english-wiktionary-stardict.tar.gz');
  it('readStarDict - the Zulu archive holds 2,710 articles and 421,630 inflected-form links (SOURCE.md)', { skip: !existsSync(real) }, () => {
    const dict = readStarDict(real);
    assert.equal(dict.articles.length, 2710);
    assert.equal(dict.synonyms.length, 421_630);
    assert.equal(dict.articles[dict.synonyms.find((s) => s.form === 'abahamba')?.article ?? -1]?.headword, 'hamba');
  });
});
