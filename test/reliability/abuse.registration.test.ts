// Quota bypass through registration: knowing a paying developer's email must not yield a paid-plan key
// (spec, What the service does 7: "A key created through the API is always on the free plan").
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { DAILY_LIMITS } from '../../services/shared/plans.ts';
import { startStack } from '../support/stack.ts';

import type { Stack } from '../support/stack.ts';

let stack: Stack;
before(async () => {
  stack = await startStack({ workers: 1 });
});
after(async () => {
  await stack?.stop();
});

async function registerAs(email: string, name: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${stack.baseUrl}/api/v1/developers`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.77' },
    body: JSON.stringify({ name, email }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('registration abuse', () => {
  for (const plan of ['team', 'institution'] as const) {
    test(`paid plan - a key registered with a ${plan} developer's email (any case) is a free-plan key`, async () => {
      const victim = await stack.keyOnPlan(plan);
      const { status, body } = await registerAs(victim.email.toUpperCase(), 'Mallory');
      assert.equal(status, 201, JSON.stringify(body));
      const res = await fetch(`${stack.baseUrl}/api/v1/stats`, { headers: { 'x-api-key': String(body.apiKey) } });
      assert.equal(res.status, 200);
      assert.equal(
        res.headers.get('x-ratelimit-limit'),
        String(DAILY_LIMITS.free),
        `a key created through the API must be on the free plan, got limit ${res.headers.get('x-ratelimit-limit')}; ` +
          `response: ${JSON.stringify(body.developer)}`,
      );
      // The victim's own key keeps its plan.
      const own = await fetch(`${stack.baseUrl}/api/v1/stats`, { headers: { 'x-api-key': victim.apiKey } });
      assert.equal(own.headers.get('x-ratelimit-limit'), String(DAILY_LIMITS[plan]));
    });
  }
});
