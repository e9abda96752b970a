// Answers the metering process's metrics requests (METRICS_SUBJECT, every worker answers) with this worker's
// families: prom-client's process metrics, the request-path counters, keys cached, dropped log lines and the
// snapshot it serves. Its own NATS connection, so that a scrape never queues behind the meter's traffic.
import { connect, type NatsConnection } from 'nats';

import { NATS_SERVER_ORDER } from '../../shared/env.ts';
import { encodeJson } from '../../shared/metering-protocol/client.ts';
import { droppedLogLines, withWorker } from '../../shared/metrics/families.ts';
import { METRICS_SUBJECT } from '../../shared/metrics/protocol.ts';
import { createProcessRegistry } from '../../shared/metrics/registry.ts';

import type { NatsAuth } from '../../shared/nats-auth/credentials.ts';
import type { ResponseBuffers } from '../http/response-buffers.ts';
import type { CollectReply, MetricFamily } from '../../shared/metrics/protocol.ts';
import type { Logger } from '../deps.ts';
import type { Meter } from '../metering-client/meter.ts';
import type { Snapshot } from '../../../snapshot/reader/snapshot.ts';
import type { WorkerCounters } from './worker-stats.ts';

/** Reconnect quickly after a NATS restart and never give up, as the meter does. */
const RECONNECT_TIME_WAIT_MS = 250;

export interface WorkerMetricsSources {
  worker: string;
  counters: WorkerCounters;
  log: Logger;
  meter: Meter;
  snapshot: Snapshot;
  /** The bytes held for clients that do not read, and the clients dropped (http/response-buffers.ts). */
  responseBuffers?: ResponseBuffers;
}

export interface WorkerMetrics {
  /** This worker's families now, labelled with its name. */
  families(): Promise<MetricFamily[]>;
  close(): Promise<void>;
}

export async function serveWorkerMetrics(natsUrl: string | string[], sources: WorkerMetricsSources, natsAuth?: NatsAuth): Promise<WorkerMetrics> {
  const { worker, counters, log, meter, snapshot, responseBuffers } = sources;
  const registry = createProcessRegistry(worker);
  const { version, formatVersion, builtAt, sample } = snapshot.meta;
  const families = async (): Promise<MetricFamily[]> => [
    // prom-client's typings give `type` as an enum; at run time it is the string the wire schema names.
    ...((await registry.getMetricsAsJSON()) as unknown as MetricFamily[]),
    ...withWorker(
      [
        ...counters.families(),
        { name: 'dict_keys_cached', help: 'API keys this worker holds, with their leases.', type: 'gauge', values: [{ labels: {}, value: meter.cachedKeys?.() ?? 0 }] },
        ...(responseBuffers ? responseBufferFamilies(responseBuffers) : []),
        droppedLogLines(log.dropped?.() ?? { request: 0, other: 0 }),
        {
          name: 'dict_snapshot_info',
          help: 'The snapshot this worker serves (always 1; its identity in the labels).',
          type: 'gauge',
          values: [{ labels: { version, format: formatVersion, built_at: builtAt, sample: String(sample) }, value: 1 }],
        },
      ],
      worker,
    ),
  ];

  // In the background, trying until NATS answers: a worker started while NATS is down serves meanwhile.
  let closed = false;
  const connecting = connect({
    servers: natsUrl,
    ...NATS_SERVER_ORDER,
    ...natsAuth,
    name: `${worker}-metrics`,
    waitOnFirstConnect: true,
    maxReconnectAttempts: -1,
    reconnectTimeWait: RECONNECT_TIME_WAIT_MS,
  }).then(
    (nc) => {
      if (closed) {
        void nc.close();
        return undefined;
      }
      nc.subscribe(METRICS_SUBJECT, {
        callback: (err, msg) => {
          if (err) return;
          families().then(
            (list) => {
              const reply: CollectReply = { worker, families: list };
              msg.respond(encodeJson(reply));
            },
            (error: unknown) => log.error({ msg: 'metrics collection failed', error: String(error) }),
          );
        },
      });
      return nc;
    },
    (error: unknown) => {
      log.error({ msg: 'metrics not gathered: cannot connect to NATS', error: String(error) });
      return undefined;
    },
  );
  let nc: NatsConnection | undefined;
  void connecting.then((c) => (nc = c));
  return {
    families,
    async close() {
      closed = true;
      if (nc !== undefined && !nc.isClosed()) await nc.drain().catch(() => undefined);
    },
  };
}

/** The bytes a worker holds for clients that do not read (bounded, RESPONSE_BUFFER_BYTES) and the clients dropped. */
function responseBufferFamilies(buffers: ResponseBuffers): MetricFamily[] {
  return [
    {
      name: 'dict_response_buffered_bytes',
      help: 'Bytes of streamed responses this worker holds because their clients have not taken them yet.',
      type: 'gauge',
      values: [{ labels: {}, value: buffers.held }],
    },
    {
      name: 'dict_slow_readers_dropped_total',
      help: 'Responses dropped because their client took none of their bytes for RESPONSE_STALL_MS (stalled) or the worker held RESPONSE_BUFFER_BYTES for such clients (buffer_full).',
      type: 'counter',
      values: Object.entries(buffers.dropped).map(([reason, value]) => ({ labels: { reason }, value })),
    },
  ];
}
