// headerBlock: several response headers in one uWS writeHeader call, and what it refuses to encode.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { extendBlock, headerBlock } from '../../services/api/http/headers.ts';

test('the first name is the call\'s name; the rest follow its value as CRLF-separated header lines', () => {
  const block = headerBlock([
    ['cache-control', 'public, max-age=60'],
    ['etag', '"v1-abc"'],
    ['content-type', 'application/json; charset=utf-8'],
  ]);
  assert.equal(block.name.toString('latin1'), 'cache-control');
  assert.equal(
    block.value.toString('latin1'),
    'public, max-age=60\r\netag: "v1-abc"\r\ncontent-type: application/json; charset=utf-8',
  );
  assert.equal(headerBlock([['etag', '"x"']]).value.toString('latin1'), '"x"');
});

test('a value with CR or LF, a name that is not a token, non-ASCII text and an empty list are refused', () => {
  assert.throws(() => headerBlock([['etag', '"x"\r\nset-cookie: a=b']]), /not a header value for etag/);
  assert.throws(() => headerBlock([['etag', '"x"\nset-cookie: a=b']]), /not a header value/);
  assert.throws(() => headerBlock([['etag', 'ọ']]), /not a header value/);
  assert.throws(() => headerBlock([['cache control', 'x']]), /not a header name/);
  assert.throws(() => headerBlock([['etag: x\r\nx', 'x']]), /not a header name/);
  assert.throws(() => headerBlock([]), /at least one header/);
});

test('extendBlock: the same bytes as one block of all the pairs, and the added pairs checked the same way', () => {
  const constant = headerBlock([['cache-control', 'public, max-age=60'], ['content-type', 'application/json']]);
  const page = extendBlock(constant, [['content-range', 'items 0-19/240']]);
  const whole = headerBlock([['cache-control', 'public, max-age=60'], ['content-type', 'application/json'], ['content-range', 'items 0-19/240']]);
  assert.deepEqual([page.name, page.value], [whole.name, whole.value]);
  // The constant block is left as it was (it is shared by every page).
  assert.equal(constant.value.toString('latin1'), 'public, max-age=60\r\ncontent-type: application/json');
  assert.throws(() => extendBlock(constant, [['content-range', 'items\r\nset-cookie: a=b']]), /not a header value for content-range/);
  assert.throws(() => extendBlock(constant, [['content range', 'x']]), /not a header name/);
});
