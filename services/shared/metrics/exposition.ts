// Prometheus text for the metric families of several processes, formatted by prom-client.
import { AggregatorRegistry } from 'prom-client';

import type { MetricFamily } from './protocol.ts';

export const CONTENT_TYPE = AggregatorRegistry.PROMETHEUS_CONTENT_TYPE;

/**
 * Every series of every process, side by side. Each carries its process's worker label, so none collides
 * with another's; summing is prom-client's way of merging families and leaves distinct series as they are
 * (its other aggregators would average or drop some of the default metrics).
 */
export function exposition(processes: readonly (readonly MetricFamily[])[]): Promise<string> {
  const families = processes.map((families) => families.map((family) => ({ ...family, aggregator: 'sum' })));
  return AggregatorRegistry.aggregate(families).metrics();
}
