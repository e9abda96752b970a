// The requests a worker is handling, counted so that a graceful stop can wait for them (one count per app, so
// that tests can run several apps in one process).
import { performance } from 'node:perf_hooks';

import type { Server } from 'hyper-express';

/** Counts requests being handled so that shutdown can wait for them. */
export class InFlight {
  #count = 0;
  #lastActivity = 0;
  /** Once set, every response closes its connection (keep-alive clients reconnect to another worker). */
  draining = false;

  get count(): number {
    return this.#count;
  }
  start(): void {
    this.#count++;
    this.#lastActivity = performance.now();
  }
  end(): void {
    this.#count--;
    this.#lastActivity = performance.now();
  }
  /**
   * Resolves once nothing has been in flight for `quietMs` (requests still arriving on open keep-alive
   * connections get served and told to close), or after `timeoutMs`: a stuck client must not block exit.
   */
  async quiet(quietMs: number, timeoutMs: number): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    while (performance.now() < deadline) {
      if (this.#count === 0 && performance.now() - this.#lastActivity >= quietMs) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

const inFlightByServer = new WeakMap<Server, InFlight>();

/** The in-flight counter of one server. */
export function inFlightOf(app: Server): InFlight {
  let inFlight = inFlightByServer.get(app);
  if (!inFlight) {
    inFlight = new InFlight();
    inFlightByServer.set(app, inFlight);
  }
  return inFlight;
}
