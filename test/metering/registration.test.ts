// Registration through the metering service: key format and storage, idempotence on email, the
// key-creation throttle (per IP, 5 per 15 minutes, every request counts, exact across workers for the keys issued).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';

import type { Meter } from '../../services/api/metering-client/meter.ts';
import { InvalidRegistrationError, RateLimitedError } from '../../services/shared/domain-errors.ts';
import { call, MeteringServiceError } from '../../services/shared/metering-protocol/client.ts';
import { RPC } from '../../services/shared/metering-protocol/protocol.ts';
import { startNats, type NatsHandle } from '../support/nats.ts';
import { freshIp, startMeteringInProcess, workerMeter, type InProcessMetering } from './support.ts';

const FIFTEEN_MINUTES_MS = 15 * 60 * 1000;

describe('registration', () => {
  let nats: NatsHandle;
  let svc: InProcessMetering;
  let a: Meter;
  let b: Meter;
  let clock = Date.parse('2025-04-01T10:00:00.000Z');
  const now = () => clock;

  before(async () => {
    nats = await startNats();
    svc = await startMeteringInProcess(nats.url, now);
    a = await workerMeter(nats.url, 'reg-a', now);
    b = await workerMeter(nats.url, 'reg-b', now);
  });
  after(async () => {
    await a.close();
    await b.close();
    await svc.stop();
    await nats.stop();
  });

  it('registration - issues a svc_live_ key once, storing only its SHA-256 and display prefix', async () => {
    const reg = await a.register({ name: 'Ngozi', email: 'Ngozi@Example.ORG', organization: 'Lab' }, freshIp());
    assert.match(reg.apiKey, /^svc_live_[0-9a-f]{40}$/);
    assert.equal(reg.keyPrefix, reg.apiKey.slice(0, 17));
    assert.deepEqual({ ...reg.developer, id: undefined }, { id: undefined, name: 'Ngozi', email: 'ngozi@example.org', plan: 'free' });
    const row = svc.db.prepare('SELECT * FROM api_keys WHERE prefix = ?').get(reg.keyPrefix) as Record<string, unknown>;
    assert.equal(row.key_hash, createHash('sha256').update(reg.apiKey).digest('hex'));
    assert.equal(row.scope, 'read');
    assert.equal(row.name, 'default');
    assert.equal(row.expires_at, null);
    assert.ok(!JSON.stringify(row).includes(reg.apiKey.slice(17)), 'no part of the secret beyond the prefix is stored');
  });

  it('registration - is idempotent on email: an existing developer gets an additional key', async () => {
    const first = await a.register({ name: 'Tunde', email: 'tunde@example.org' }, freshIp());
    const second = await b.register({ name: 'Another Name', email: 'TUNDE@example.org', keyName: 'ci' }, freshIp());
    assert.equal(second.developer.id, first.developer.id);
    assert.equal(second.developer.name, 'Tunde');
    assert.notEqual(second.apiKey, first.apiKey);
    const keys = svc.db
      .prepare('SELECT name FROM api_keys WHERE developer_id = ? ORDER BY created_at, name')
      .all(first.developer.id) as { name: string }[];
    assert.deepEqual(keys.map((k) => k.name).sort(), ['ci', 'default']);
    const developers = svc.db.prepare('SELECT count(*) AS n FROM developers WHERE email = ?').get('tunde@example.org');
    assert.deepEqual(developers, { n: 1 });
    await assert.doesNotReject(a.admit(first.apiKey, 'GET /api/v1/stats'));
    await assert.doesNotReject(b.admit(second.apiKey, 'GET /api/v1/stats'));
  });

  it('registration - truncates organization and useCase and refuses a malformed email', async () => {
    const reg = await a.register(
      { name: 'Long', email: 'long@example.org', organization: 'o'.repeat(300), useCase: 'u'.repeat(900) },
      freshIp(),
    );
    const row = svc.db.prepare('SELECT organization, use_case FROM developers WHERE id = ?').get(reg.developer.id) as {
      organization: string;
      use_case: string;
    };
    assert.equal(row.organization.length, 200);
    assert.equal(row.use_case.length, 500);
    const err = await a.register({ name: 'x', email: 'not an email' }, freshIp()).catch((e: unknown) => e);
    assert.ok(err instanceof InvalidRegistrationError, String(err));
    assert.equal(err.parameter, 'email');
  });

  it('registration - six concurrent requests from one IP over two workers give exactly five keys', async () => {
    const ip = freshIp();
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) => (i % 2 ? a : b).register({ name: 'C', email: `c${i}@example.org` }, ip)),
    );
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 5);
    const refused = results.filter((r) => r.status === 'rejected');
    assert.equal(refused.length, 1);
    assert.ok((refused[0] as PromiseRejectedResult).reason instanceof RateLimitedError);
    assert.equal(((refused[0] as PromiseRejectedResult).reason as RateLimitedError).retryAfterSeconds, 900);
    await assert.doesNotReject(a.register({ name: 'C', email: 'other-ip@example.org' }, freshIp()));
  });

  it('registration - the throttle window slides over 15 minutes and refused requests count', async () => {
    const ip = freshIp();
    const start = clock;
    for (let i = 0; i < 5; i++) {
      clock = start + i * 60_000;
      await a.register({ name: 'W', email: `w${i}@example.org` }, ip);
    }
    clock = start + 10 * 60_000;
    await assert.rejects(a.register({ name: 'W', email: 'w5@example.org' }, ip), RateLimitedError);
    // 15 minutes after the first request it leaves the window, but the refused one at +10 min still counts on
    // the worker that refused it (refusals are decided there, without a round trip).
    clock = start + FIFTEEN_MINUTES_MS + 1;
    await assert.rejects(a.register({ name: 'W', email: 'w6@example.org' }, ip), RateLimitedError);
    // Another worker never saw that refusal: metering decides, from the attempts it saw and the keys it issued
    // in the window (four), so one more key is issued.
    await assert.doesNotReject(b.register({ name: 'W', email: 'w6b@example.org' }, ip));
    // Once every attempt of the burst is older than 15 minutes, the address may register again.
    clock = start + 10 * 60_000 + FIFTEEN_MINUTES_MS + FIFTEEN_MINUTES_MS;
    await assert.doesNotReject(a.register({ name: 'W', email: 'w7@example.org' }, ip));
  });

  it('registration - a flood of refused attempts from one address writes nothing: the service keeps five rows', async () => {
    // Straight to the service, past the workers' own throttle, as a worker that never saw the address would send.
    const ip = freshIp();
    const outcomes = await Promise.all(
      Array.from({ length: 500 }, (_, i) =>
        call(svc.nc, RPC.register, { input: { name: 'F', email: `flood${i}@example.org` }, clientIp: ip }).then(
          () => 'created',
          (e: unknown) => (e instanceof MeteringServiceError ? e.kind : String(e)),
        ),
      ),
    );
    assert.equal(outcomes.filter((o) => o === 'created').length, 5, JSON.stringify([...new Set(outcomes)]));
    assert.equal(outcomes.filter((o) => o === 'rate_limited').length, 495);
    assert.deepEqual(svc.db.prepare('SELECT count(*) AS n FROM registration_attempts WHERE ip = ?').get(ip), { n: 5 });
  });
});
