// The TypeScript client's 429 waiting rule: Retry-After when sent (seconds or an HTTP date), else 00:00 UTC for
// quota_exceeded and the 900-second window for rate_limited.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { msUntilUtcMidnight, RATE_LIMITED_WAIT_SECONDS, retryAfterMs, waitAfter429 } from '../../clients/typescript/src/index.ts';

const NOW = Date.UTC(2026, 10, 27, 23, 0, 0);

describe('typescript client wait rule', () => {
  test('typescript client wait rule - quota_exceeded without Retry-After waits until 00:00 UTC', () => {
    assert.equal(waitAfter429('quota_exceeded', null, NOW), 3_600_000);
  });

  test('typescript client wait rule - rate_limited without Retry-After waits the 900-second window', () => {
    assert.equal(RATE_LIMITED_WAIT_SECONDS, 900);
    assert.equal(waitAfter429('rate_limited', null, NOW), 900_000);
  });

  test('typescript client wait rule - Retry-After in seconds wins', () => {
    assert.equal(waitAfter429('quota_exceeded', '120', NOW), 120_000);
    assert.equal(waitAfter429('rate_limited', ' 900 ', NOW), 900_000);
  });

  test('typescript client wait rule - Retry-After as an HTTP date', () => {
    assert.equal(retryAfterMs('Sat, 28 Nov 2026 00:00:00 GMT', NOW), 3_600_000);
    assert.equal(retryAfterMs('Fri, 27 Nov 2026 22:00:00 GMT', NOW), 0);
  });

  test('typescript client wait rule - an unreadable Retry-After falls back to the rule', () => {
    assert.equal(retryAfterMs('soon', NOW), undefined);
    assert.equal(retryAfterMs('', NOW), undefined);
    assert.equal(waitAfter429('rate_limited', 'soon', NOW), 900_000);
  });

  test('typescript client wait rule - at 00:00 UTC the next reset is a whole day away', () => {
    const midnight = Date.UTC(2026, 10, 28);
    assert.equal(msUntilUtcMidnight(midnight), 86_400_000);
    assert.equal(msUntilUtcMidnight(midnight - 1), 1);
  });
});
