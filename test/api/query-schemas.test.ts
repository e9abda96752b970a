// queryParser: how query text becomes the values the route schemas check (no z.preprocess; see the file).
import assert from 'node:assert/strict';
import { parse } from 'node:querystring';
import { test } from 'node:test';

import { z } from 'zod';

import { intParam, queryParser } from '../../services/api/http/query-schemas.ts';
import { ApiError } from '../../services/shared/errors.ts';

const parseQuery = queryParser(
  z.object({
    q: z.string().max(5).optional(),
    page: intParam(1, 100, 1),
  }),
);
const run = (query: string) => parseQuery(parse(query));
const refusal = (query: string): string => {
  try {
    run(query);
  } catch (error) {
    assert.ok(error instanceof ApiError);
    assert.equal(error.code, 'invalid_parameter');
    return error.message;
  }
  assert.fail(`${query} was accepted`);
};

test('decimal digits become the number; defaults fill absent parameters', () => {
  assert.deepEqual(run('page=7&q=omi'), { page: 7, q: 'omi' });
  assert.deepEqual(run(''), { page: 1 });
  assert.deepEqual(run('page=007'), { page: 7 });
});

test('an empty optional text parameter is absent; an empty number is refused', () => {
  assert.deepEqual(run('q='), { page: 1 });
  assert.equal(refusal('page='), "Invalid parameter 'page': must be an integer");
});

test('only plain decimal digits are numbers', () => {
  for (const text of ['1e3', '0x10', ' 5', '5 ', '2.5', 'abc', '+5']) {
    assert.equal(refusal(`page=${encodeURIComponent(text)}`), "Invalid parameter 'page': must be an integer", text);
  }
  assert.equal(refusal('page=0'), "Invalid parameter 'page': must be at least 1");
  assert.equal(refusal('page=-3'), "Invalid parameter 'page': must be at least 1");
  assert.equal(refusal('page=101'), "Invalid parameter 'page': must be at most 100");
});

test('a repeated parameter is refused as the wrong type; unknown parameters are ignored', () => {
  assert.equal(refusal('page=1&page=2'), "Invalid parameter 'page': must be an integer");
  assert.equal(refusal('q=a&q=b'), "Invalid parameter 'q': must be a string");
  assert.deepEqual(run('utm_source=x&page=2'), { page: 2 });
  assert.equal(refusal('q=abcdef'), "Invalid parameter 'q': must be at most 5 characters");
});

test('a parameter named __proto__ is ignored like any unknown one, even repeated', () => {
  assert.deepEqual(run('__proto__=x&__proto__=y&page=3'), { page: 3 });
  assert.deepEqual(run('constructor=1&toString=2'), { page: 1 });
});
