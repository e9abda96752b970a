// Errors that answer a client (bad key, spent quota, unknown entry, refused parameter) are built without a stack
// trace (nobody reads it, and capturing it costs more than the rest of a 404's JavaScript); faults keep theirs
// for the log.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { InvalidApiKeyError, MeteringUnavailableError, QuotaExceededError } from '../../services/shared/domain-errors.ts';
import { ApiError, invalidParameter, notFound } from '../../services/shared/errors.ts';

describe('answer errors', () => {
  it('answer errors - an ApiError or a refused key or quota carries its name and message but no stack frames', () => {
    const limit = Error.stackTraceLimit;
    const quota = new QuotaExceededError({ plan: 'free', endpoint: 'GET /api/v1/stats', limit: 1000, used: 1000, retryAfterSeconds: 60 });
    for (const error of [notFound('No entry with id or slug "x".'), invalidParameter('limit', 'too big'), new InvalidApiKeyError('API key refused'), quota]) {
      assert.ok(error instanceof Error);
      assert.equal(error.stack, `${error.name}: ${error.message}`);
    }
    assert.ok(notFound('x') instanceof ApiError);
    assert.equal(notFound('x').status, 404);
    assert.equal(Error.stackTraceLimit, limit, 'the stack trace limit is put back');
  });

  it('answer errors - a fault keeps its stack trace for the server log', () => {
    for (const error of [new Error('disk on fire'), new MeteringUnavailableError('no responders')]) {
      assert.match(error.stack ?? '', /\n\s+at /);
    }
  });
});
