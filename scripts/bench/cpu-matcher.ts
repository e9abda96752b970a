// How much CPU the cost-matched raw server burns per request so that its whole CPU per request comes out at a
// target (the API workers' CPU per request in the stack run just before).
//
// The burn cannot simply be the target minus what raw uWS costs in its own runs: raw's own cost per request
// depends on its rate (at the stack's rate each wake-up of the event loop finds fewer requests to share it
// than at raw's), and a separate warm-up run is too short and too JIT-bound to measure it. So the server
// measures itself: every window it compares its CPU per request with the target and moves the burn by part of
// the difference.

/** Windows with fewer requests than this say too little to act on. */
const MIN_WINDOW_REQUESTS = 50;
/** Share of the difference corrected per window: converges in a few windows without chasing noise. */
const GAIN = 0.5;

export class CpuMatcher {
  /** CPU µs to burn per request now. */
  burnMicros: number;
  private requests = 0;
  private cpuMicros = 0;

  constructor(readonly targetMicros: number) {
    if (!Number.isFinite(targetMicros) || targetMicros < 0) throw new Error(`CPU per request must be a number of µs >= 0, got ${targetMicros}`);
    this.burnMicros = targetMicros;
  }

  served(): void {
    this.requests++;
  }

  /**
   * Ends a window in which the process used `cpuMicros` (user + system); returns the new burn. A window with
   * too few requests is joined to the next.
   */
  endWindow(cpuMicros: number): number {
    this.cpuMicros += cpuMicros;
    const requests = this.requests;
    if (requests < MIN_WINDOW_REQUESTS) return this.burnMicros;
    const perRequest = this.cpuMicros / requests;
    this.requests = 0;
    this.cpuMicros = 0;
    this.burnMicros = Math.max(0, this.burnMicros + GAIN * (this.targetMicros - perRequest));
    return this.burnMicros;
  }
}
