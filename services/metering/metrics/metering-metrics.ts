// The metering process's own metrics: its NATS requests by endpoint and outcome with their handling time,
// registrations, and dropped log lines; prom-client's process metrics come with the registry.
import { Counter, Gauge, Histogram } from 'prom-client';

import type { Registry } from 'prom-client';
import type { StorageStatus } from '../storage-health.ts';

/** Upper bounds (seconds) of the handling-time histogram: a lease is one SQLite transaction with an fsync. */
const HANDLING_BUCKETS_S = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];
/** What a registration request came to, by the service's outcome. */
const REGISTRATION_OUTCOMES: Record<string, string> = { ok: 'created', rate_limited: 'throttled', invalid_registration: 'invalid', bad_request: 'invalid' };

export interface MeteringMetrics {
  /** One request handled: its endpoint name, `ok` or the error kind it was answered with, and its time. */
  request(endpoint: string, outcome: string, seconds: number): void;
  /**
   * Reports the storage health at each scrape: whether metering.db takes commits and, while not, SQLite's cause
   * (the operators' detail that the public /healthz leaves out).
   */
  watchStorage(status: () => StorageStatus): void;
}

export function createMeteringMetrics(registry: Registry): MeteringMetrics {
  const requests = new Counter({
    name: 'dict_metering_requests_total',
    help: 'Requests the metering service answered, by endpoint (lease, release, register, ops-…) and outcome.',
    labelNames: ['endpoint', 'outcome'],
    registers: [registry],
  });
  const handling = new Histogram({
    name: 'dict_metering_request_duration_seconds',
    help: 'Time the metering service took to answer a request, by endpoint.',
    labelNames: ['endpoint'],
    buckets: HANDLING_BUCKETS_S,
    registers: [registry],
  });
  const registrations = new Counter({
    name: 'dict_registrations_total',
    help: 'Developer registrations: created, throttled (too many from one address), invalid.',
    labelNames: ['outcome'],
    registers: [registry],
  });
  // Present at zero from the start, so that a rate over them is defined before the first registration.
  for (const outcome of new Set(Object.values(REGISTRATION_OUTCOMES))) registrations.inc({ outcome }, 0);
  return {
    watchStorage(status) {
      new Gauge({
        name: 'dict_metering_can_commit',
        help: 'Whether metering.db takes commits (0 from the first failed commit until a probe commit succeeds).',
        registers: [registry],
        collect() {
          this.set(status().canCommit ? 1 : 0);
        },
      });
      new Gauge({
        name: 'dict_metering_storage_error_info',
        help: "While metering.db takes no commits: SQLite's code and message of the failure, in the error label.",
        labelNames: ['error'],
        registers: [registry],
        collect() {
          this.reset();
          const { error } = status();
          if (error !== null) this.set({ error }, 1);
        },
      });
    },
    request(endpoint, outcome, seconds) {
      requests.inc({ endpoint, outcome });
      handling.observe({ endpoint }, seconds);
      if (endpoint === 'register') registrations.inc({ outcome: REGISTRATION_OUTCOMES[outcome] ?? outcome });
    },
  };
}
