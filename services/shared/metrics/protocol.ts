// How the metrics of every process reach one scrape: the metering process asks on METRICS_SUBJECT (no queue
// group, so every API worker answers) and each worker replies with its metric families as prom-client's JSON.
import { z } from 'zod';

export const METRICS_SUBJECT = 'dict.metrics.v1.collect';

const labelValue = z.union([z.string(), z.number()]);

/** One metric and its series, as prom-client's getMetricsAsJSON() gives it. */
export const metricFamily = z.object({
  name: z.string().regex(/^[a-zA-Z_:][a-zA-Z0-9_:]*$/),
  help: z.string(),
  type: z.enum(['counter', 'gauge', 'histogram', 'summary']),
  values: z.array(
    z.object({
      // JSON has no NaN: prom-client's NaN (a gauge not measured yet) arrives as null.
      value: z.number().nullable().transform((v) => v ?? Number.NaN),
      labels: z.record(labelValue).default({}),
      metricName: z.string().optional(),
    }),
  ),
});

export type MetricFamily = z.output<typeof metricFamily>;

export const collectReply = z.object({ worker: z.string(), families: z.array(metricFamily) });

export type CollectReply = z.output<typeof collectReply>;
