// Metric families every process reports besides prom-client's defaults, and the worker label added to
// families built by hand (a registry's default labels reach only its own metrics).
import type { DroppedLines } from '../log/bounded-output.ts';
import type { MetricFamily } from './protocol.ts';

export function droppedLogLines(dropped: DroppedLines): MetricFamily {
  return {
    name: 'dict_log_lines_dropped_total',
    help: 'Log lines dropped because the process log reader (pm2) did not keep up: request lines, and others beyond their reserve.',
    type: 'counter',
    values: [
      { labels: { kind: 'request' }, value: dropped.request },
      { labels: { kind: 'other' }, value: dropped.other },
    ],
  };
}

export function withWorker(families: readonly MetricFamily[], worker: string): MetricFamily[] {
  return families.map((family) => ({ ...family, values: family.values.map((v) => ({ ...v, labels: { ...v.labels, worker } })) }));
}
