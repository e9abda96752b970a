// Content-coding negotiation and bodies compressed once (services/api/http/compression.ts).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';

import { COMPRESS_MIN_BYTES, CompressedBody, encodedEtag, negotiate } from '../../services/api/http/compression.ts';

describe('negotiate', () => {
  it('negotiate - picks br, then gzip, honouring q-values, * and case', () => {
    const cases: Array<[string | undefined, string | undefined]> = [
      [undefined, undefined],
      ['', undefined],
      ['identity', undefined],
      ['gzip', 'gzip'],
      ['x-gzip', 'gzip'],
      ['GZIP', 'gzip'],
      ['gzip, deflate, br', 'br'],
      ['gzip, deflate, br, zstd', 'br'],
      ['br;q=0.5, gzip', 'gzip'],
      ['br;q=0, gzip;q=0.1', 'gzip'],
      ['gzip;q=0', undefined],
      ['*', 'br'],
      ['*;q=0', undefined],
      ['gzip, *;q=0', 'gzip'],
      ['deflate', undefined],
      [' gzip ;q=1.0 , br ; q=0.9', 'gzip'],
    ];
    for (const [header, coding] of cases) assert.equal(negotiate(header), coding, JSON.stringify(header));
  });

  it('negotiate - many distinct values (past the bound on those remembered) still get their own answer', () => {
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 200; i++) {
        assert.equal(negotiate(`gzip;q=0.${i % 9 + 1}, x-custom-${i}`), 'gzip');
        assert.equal(negotiate(`br, x-other-${i}`), 'br');
        assert.equal(negotiate(`identity, x-none-${i}`), undefined);
      }
    }
  });

  it('encodedEtag - a strong validator per coding', () => {
    assert.equal(encodedEtag('"v1-abc"', 'gzip'), '"v1-abc-gzip"');
    assert.equal(encodedEtag('"v1-abc"', 'br'), '"v1-abc-br"');
  });
});

describe('compressed body', () => {
  it('compressed body - compresses once per coding and keeps the bytes', () => {
    const body = new CompressedBody(Buffer.from(JSON.stringify({ words: Array.from({ length: 200 }, (_, i) => `ọmọ ${i}`) })));
    const once = body.bytes('gzip');
    assert.ok(once && once.length < body.identity.length);
    assert.equal(body.bytes('gzip'), once, 'the same Buffer: not compressed again');
    assert.equal(gunzipSync(once).toString(), body.identity.toString());
    assert.equal(body.codingFor('gzip, br'), 'br');
    assert.equal(body.varies, true);
  });

  it('compressed body - a small body or one that does not shrink goes as it is', () => {
    const small = new CompressedBody(Buffer.alloc(COMPRESS_MIN_BYTES - 1, 'a'));
    assert.equal(small.codingFor('gzip'), undefined);
    assert.equal(small.varies, false);
    const noise = new CompressedBody(randomBytes(4096));
    assert.equal(noise.codingFor('gzip'), undefined, 'random bytes grow when gzipped');
    assert.equal(noise.bytes('gzip'), undefined);
  });
});
