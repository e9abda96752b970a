// framingOf: how a request's body is framed from its raw header lines, and which framings are refused.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { framingOf } from '../../services/api/http/framing.ts';

import type { HeaderLines } from '../../services/api/http/framing.ts';

const outcome = (lines: HeaderLines): string => {
  const f = framingOf(lines);
  if (f.body === 'refused') return `${f.error.status} ${f.error.code}`;
  return f.body === 'length' ? `length ${f.length}` : f.body;
};

describe('framingOf', () => {
  const table: [string, HeaderLines, string][] = [
    ['no body', [['host', 'x']], 'none'],
    ['Content-Length 0', [['content-length', '0']], 'none'],
    ['Content-Length 12', [['content-length', '12']], 'length 12'],
    ['chunked', [['transfer-encoding', 'chunked']], 'chunked'],
    ['chunked, any case', [['transfer-encoding', 'Chunked']], 'chunked'],
    ['an empty Host is one Host', [['host', '']], 'none'],
    ['two Host lines', [['host', 'x'], ['host', 'y']], '400 bad_request'],
    ['two Content-Length lines', [['content-length', '40'], ['content-length', '2']], '400 bad_request'],
    ['two equal Content-Length lines', [['content-length', '2'], ['content-length', '2']], '400 bad_request'],
    ['a list', [['content-length', '0, 5']], '400 bad_request'],
    ['negative', [['content-length', '-5']], '400 bad_request'],
    ['signed', [['content-length', '+5']], '400 bad_request'],
    ['not a number', [['content-length', 'abc']], '400 bad_request'],
    ['hexadecimal', [['content-length', '0x10']], '400 bad_request'],
    ['Transfer-Encoding and Content-Length', [['transfer-encoding', 'chunked'], ['content-length', '5']], '400 bad_request'],
    ['Transfer-Encoding twice', [['transfer-encoding', 'chunked'], ['transfer-encoding', 'chunked']], '400 bad_request'],
    ['chunked not last', [['transfer-encoding', 'chunked, gzip']], '400 bad_request'],
    ['no chunked', [['transfer-encoding', 'gzip']], '400 bad_request'],
    ['chunked twice in a list', [['transfer-encoding', 'chunked, chunked']], '400 bad_request'],
    ['a coding before chunked', [['transfer-encoding', 'gzip, chunked']], '501 not_implemented'],
  ];
  for (const [name, lines, expected] of table) {
    test(`framingOf - ${name}: ${expected}`, () => assert.equal(outcome(lines), expected));
  }
});
