// Metered requests and registrations refused because metering cannot be asked: one log line when that starts and
// one when metering answers again, every refusal counted in the metrics (dict_failed_closed_total). A line (and a
// stack) per refused request would flood the log in an outage and rotate the evidence of its start away.
import { MeteringStorageError, RegistrationsBusyError, type MeteringUnavailableError } from '../../shared/domain-errors.ts';

import type { Deps } from '../deps.ts';

export type FailClosedReason = 'unreachable' | 'storage';

class FailClosed {
  /** Set from the first refusal for an unreachable metering until it answers a lease request again. */
  #since: number | undefined;
  #refusedSince = 0;

  constructor(private readonly deps: Deps) {}

  failed(error: MeteringUnavailableError): void {
    // A bound on registrations in flight, not an outage: the guards' metrics count it.
    if (error instanceof RegistrationsBusyError) return;
    // A full disk is logged once where it is met (metering, or this worker's host ledger): counted only.
    const reason: FailClosedReason = error instanceof MeteringStorageError ? 'storage' : 'unreachable';
    this.deps.stats.failedClosed?.(reason);
    if (reason === 'storage') return;
    this.#refusedSince++;
    if (this.#since !== undefined) return;
    this.#since = this.deps.now();
    this.deps.log.error({
      msg: 'metering unreachable: metered requests without units held and registrations fail closed (internal_error) until it answers',
      error: error.message,
    });
  }

  /** Metering answered a lease request. */
  answered(): void {
    if (this.#since === undefined) return;
    this.deps.log.info({ msg: 'metering answers again', afterMs: this.deps.now() - this.#since, refused: this.#refusedSince });
    this.#since = undefined;
    this.#refusedSince = 0;
  }
}

const byDeps = new WeakMap<Deps, FailClosed>();

/** The worker's one fail-closed state (per Deps: tests run several apps in one process). */
export function failClosedOf(deps: Deps): FailClosed {
  let state = byDeps.get(deps);
  if (state === undefined) {
    state = new FailClosed(deps);
    byDeps.set(deps, state);
  }
  return state;
}
