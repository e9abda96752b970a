// quota_exceeded's message: plan, endpoint, used, limit, the 00:00 UTC reset, and a pointer to upgrade that
// names the operator's contact (OPERATOR_CONTACT) or says that none is published.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { toApiError } from '../../services/api/http/errors.ts';
import { QuotaExceededError } from '../../services/shared/domain-errors.ts';

const spent = new QuotaExceededError({ plan: 'free', endpoint: 'GET /api/v1/stats', limit: 1000, used: 1000, retryAfterSeconds: 3600 });
const EVERY_PART = ['free', 'GET /api/v1/stats', '1000', '00:00 UTC', 'contact the operator to upgrade to the team or institution plan'];

describe('quota_exceeded message', () => {
  it('quota_exceeded message - names the operator contact when one is configured', () => {
    for (const contact of [{ text: 'ops@example.org', href: 'mailto:ops@example.org' }, { text: 'https://example.org/plans', href: 'https://example.org/plans' }]) {
      const { apiError } = toApiError(spent, contact);
      for (const part of [...EVERY_PART, contact.text]) assert.ok(apiError.message.includes(part), `lacks "${part}": ${apiError.message}`);
      assert.equal(apiError.code, 'quota_exceeded');
      assert.deepEqual(apiError.details, { plan: 'free', endpoint: 'GET /api/v1/stats', used: 1000, limit: 1000 });
    }
  });

  it('quota_exceeded message - says plainly when no contact is configured', () => {
    const { apiError } = toApiError(spent, undefined);
    for (const part of [...EVERY_PART, 'has not published a contact address']) assert.ok(apiError.message.includes(part), `lacks "${part}": ${apiError.message}`);
  });
});
