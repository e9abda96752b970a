// The API worker's own counters, kept as plain numbers on the request path and turned into metric families
// only when a scrape asks (a prom-client call per request would cost each request its label hashing).
import type { MetricFamily } from '../../shared/metrics/protocol.ts';

/** Upper bounds (ms) of the request-duration histogram: a worker answers most requests in well under 1 ms. */
export const DURATION_BUCKETS_MS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500] as const;
/** Upper bounds (ms) of the lease round-trip histogram. */
export const LEASE_BUCKETS_MS = [0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000] as const;
/** Statuses counted one by one (100-599, and 499 for a client gone before the answer); others count as 0. */
const STATUS_SLOTS = 600;

/** How an admission was decided: from quota the worker or its host held, or after asking metering for a block. */
export type AdmittedBy = 'held' | 'asked';
/**
 * What a request to metering came back with: a block `granted`, `exhausted`, `invalid`; `failed`: no answer
 * (timeout, metering unreachable).
 */
export type LeaseOutcome = 'granted' | 'exhausted' | 'invalid' | 'failed';
/**
 * A request refused by one of the worker's own bounds, before it cost the metering service anything: `website`
 * (an address over its allowance of pages), `registration` (over the key-creation limit), `registrations_busy`
 * (registrations in flight at their bound), `unknown_keys` (an address whose keys keep turning out unknown).
 */
export type Guard = 'website' | 'registration' | 'registrations_busy' | 'unknown_keys';

/** What the request path and the meter record; plain increments. */
export interface WorkerStats {
  /** One finished request: its route pattern, status and time in the worker. */
  request(route: string, status: number, ms: number): void;
  admitted(endpoint: string, by: AdmittedBy): void;
  /** A metered request refused before its handler ran, by the error code it was answered with. */
  refused(endpoint: string, code: string): void;
  lease(outcome: LeaseOutcome, ms: number): void;
  guarded(guard: Guard): void;
  /** A request refused because metering could not be asked (http/fail-closed.ts). */
  failedClosed?(reason: 'unreachable' | 'storage'): void;
}

class Histogram {
  readonly counts: Float64Array;
  sum = 0;
  constructor(readonly bounds: readonly number[]) {
    this.counts = new Float64Array(bounds.length + 1);
  }
  observe(ms: number): void {
    const { bounds } = this;
    let i = 0;
    while (i < bounds.length && ms > bounds[i]) i++;
    this.counts[i]++;
    this.sum += ms;
  }
  /** Prometheus's cumulative buckets (seconds), _sum and _count. */
  values(name: string, labels: Record<string, string>): MetricFamily['values'] {
    const values: MetricFamily['values'] = [];
    let cumulative = 0;
    this.bounds.forEach((bound, i) => {
      cumulative += this.counts[i];
      values.push({ metricName: `${name}_bucket`, labels: { ...labels, le: bound / 1000 }, value: cumulative });
    });
    cumulative += this.counts[this.bounds.length];
    values.push({ metricName: `${name}_bucket`, labels: { ...labels, le: '+Inf' }, value: cumulative });
    values.push({ metricName: `${name}_sum`, labels, value: this.sum / 1000 });
    values.push({ metricName: `${name}_count`, labels, value: cumulative });
    return values;
  }
}

interface RouteStats {
  statuses: Float64Array;
  duration: Histogram;
}

interface EndpointStats {
  held: number;
  asked: number;
  refused: Map<string, number>;
}

export class WorkerCounters implements WorkerStats {
  readonly #routes = new Map<string, RouteStats>();
  readonly #endpoints = new Map<string, EndpointStats>();
  readonly #leases = new Map<LeaseOutcome, number>();
  readonly #leaseTime = new Histogram(LEASE_BUCKETS_MS);
  readonly #guarded = new Map<Guard, number>();
  readonly #failedClosed = { unreachable: 0, storage: 0 };

  request(route: string, status: number, ms: number): void {
    let stats = this.#routes.get(route);
    if (stats === undefined) {
      stats = { statuses: new Float64Array(STATUS_SLOTS), duration: new Histogram(DURATION_BUCKETS_MS) };
      this.#routes.set(route, stats);
    }
    stats.statuses[status > 0 && status < STATUS_SLOTS ? status : 0]++;
    stats.duration.observe(ms);
  }

  admitted(endpoint: string, by: AdmittedBy): void {
    this.#endpoint(endpoint)[by]++;
  }

  refused(endpoint: string, code: string): void {
    const { refused } = this.#endpoint(endpoint);
    refused.set(code, (refused.get(code) ?? 0) + 1);
  }

  lease(outcome: LeaseOutcome, ms: number): void {
    this.#leases.set(outcome, (this.#leases.get(outcome) ?? 0) + 1);
    this.#leaseTime.observe(ms);
  }

  guarded(guard: Guard): void {
    this.#guarded.set(guard, (this.#guarded.get(guard) ?? 0) + 1);
  }

  failedClosed(reason: 'unreachable' | 'storage'): void {
    this.#failedClosed[reason]++;
  }

  #endpoint(endpoint: string): EndpointStats {
    let stats = this.#endpoints.get(endpoint);
    if (stats === undefined) {
      stats = { held: 0, asked: 0, refused: new Map() };
      this.#endpoints.set(endpoint, stats);
    }
    return stats;
  }

  /** The counters as metric families, read at scrape time. */
  families(): MetricFamily[] {
    const requests: MetricFamily['values'] = [];
    const durations: MetricFamily['values'] = [];
    for (const [route, stats] of this.#routes) {
      stats.statuses.forEach((n, status) => {
        if (n > 0) requests.push({ labels: { route, status }, value: n });
      });
      durations.push(...stats.duration.values('dict_http_request_duration_seconds', { route }));
    }
    const admissions: MetricFamily['values'] = [];
    for (const [endpoint, stats] of this.#endpoints) {
      admissions.push({ labels: { endpoint, result: 'admitted', reason: 'held' }, value: stats.held });
      admissions.push({ labels: { endpoint, result: 'admitted', reason: 'asked' }, value: stats.asked });
      for (const [code, n] of stats.refused) admissions.push({ labels: { endpoint, result: 'refused', reason: code }, value: n });
    }
    return [
      { name: 'dict_http_requests_total', help: 'Requests answered, by route pattern and status.', type: 'counter', values: requests },
      {
        name: 'dict_failed_closed_total',
        help: 'Requests refused (internal_error) because metering could not be asked: unreachable, or unable to commit (storage).',
        type: 'counter',
        values: Object.entries(this.#failedClosed).map(([reason, value]) => ({ labels: { reason }, value })),
      },
      {
        name: 'dict_http_request_duration_seconds',
        help: "Time from a request's arrival in the worker to its response, by route pattern.",
        type: 'histogram',
        values: durations,
      },
      {
        name: 'dict_admissions_total',
        help: 'Metered requests admitted (from quota the worker or its host held, or after asking metering for a block) and refused (by error code).',
        type: 'counter',
        values: admissions,
      },
      {
        name: 'dict_lease_requests_total',
        help: 'Requests for quota to the metering service (for the host or for the worker), by outcome.',
        type: 'counter',
        values: [...this.#leases].map(([outcome, n]) => ({ labels: { outcome }, value: n })),
      },
      {
        name: 'dict_lease_request_duration_seconds',
        help: 'Round-trip time of requests for quota to the metering service.',
        type: 'histogram',
        values: this.#leaseTime.values('dict_lease_request_duration_seconds', {}),
      },
      {
        name: 'dict_guard_refusals_total',
        help: "Requests refused by the worker's own bounds before reaching the metering service, by guard (website, registration, registrations_busy, unknown_keys).",
        type: 'counter',
        values: [...this.#guarded].map(([guard, n]) => ({ labels: { guard }, value: n })),
      },
    ];
  }
}
