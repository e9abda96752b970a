// The worker's own bounds (services/api/guards/): the website's allowance of pages per address, and the
// registration gate's window and its bound on registrations in flight.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { PAGE_BURST, PAGES_PER_SECOND, PageAllowance } from '../../services/api/guards/page-allowance.ts';
import { REGISTRATIONS_IN_FLIGHT, REGISTRATIONS_WAITING, RegistrationGate } from '../../services/api/guards/registration-gate.ts';
import { RateLimitedError, RegistrationsBusyError } from '../../services/shared/domain-errors.ts';
import { KEY_CREATION_LIMIT } from '../../services/shared/plans.ts';

describe('worker guards', () => {
  it('PageAllowance - a burst of PAGE_BURST, then PAGES_PER_SECOND a second; addresses apart', () => {
    const pages = new PageAllowance();
    const taken = Array.from({ length: PAGE_BURST + 5 }, () => pages.take('a', 0)).filter(Boolean).length;
    assert.equal(taken, PAGE_BURST);
    assert.equal(pages.take('b', 0), true, 'another address has its own');
    // One second later, a second's worth is back, no more.
    const later = Array.from({ length: PAGES_PER_SECOND + 5 }, () => pages.take('a', 1000)).filter(Boolean).length;
    assert.equal(later, PAGES_PER_SECOND);
    // Long idle refills to the burst, not beyond.
    const rested = Array.from({ length: PAGE_BURST + 5 }, () => pages.take('a', 3_600_000)).filter(Boolean).length;
    assert.equal(rested, PAGE_BURST);
  });

  it('RegistrationGate - an address over the limit is refused early, and the refusal counts', async () => {
    let clock = 0;
    const gate = new RegistrationGate(() => clock);
    for (let i = 0; i < KEY_CREATION_LIMIT; i++) {
      clock = i * 60_000;
      gate.refuseEarly('a');
      await gate.register('a', async () => 'ok');
    }
    clock = 10 * 60_000;
    assert.throws(() => gate.refuseEarly('a'), RateLimitedError);
    await assert.rejects(gate.register('a', async () => 'ok'), RateLimitedError);
    assert.doesNotThrow(() => gate.refuseEarly('b'));
    // The first attempt has left the window, but with the two refusals at +10 min it still holds five.
    clock = 15 * 60_000 + 1;
    assert.throws(() => gate.refuseEarly('a'), RateLimitedError);
    // Once those too are older than the window, the address may try again.
    clock = 40 * 60_000;
    assert.doesNotThrow(() => gate.refuseEarly('a'));
  });

  it('RegistrationGate - at most REGISTRATIONS_IN_FLIGHT sent at once, REGISTRATIONS_WAITING more wait, the rest are busy', async () => {
    const gate = new RegistrationGate(() => 0);
    let sent = 0;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const total = REGISTRATIONS_IN_FLIGHT + REGISTRATIONS_WAITING + 3;
    const outcomes = Array.from({ length: total }, (_, i) =>
      gate
        .register(`10.0.${i >> 8}.${i & 255}`, async () => {
          sent++;
          await held;
          return 'created';
        })
        .catch((error: unknown) => (error instanceof RegistrationsBusyError ? 'busy' : String(error))),
    );
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(sent, REGISTRATIONS_IN_FLIGHT);
    release();
    const results = await Promise.all(outcomes);
    assert.equal(results.filter((r) => r === 'busy').length, 3);
    assert.equal(results.filter((r) => r === 'created').length, REGISTRATIONS_IN_FLIGHT + REGISTRATIONS_WAITING);
  });
});
