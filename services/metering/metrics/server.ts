// GET /metrics for the whole stack, served by the metering process on METRICS_HOST:METRICS_PORT (loopback by
// default, never the public port): its own metrics and every API worker's, gathered over NATS at each scrape.
import http from 'node:http';

import { droppedLogLines, withWorker } from '../../shared/metrics/families.ts';
import { CONTENT_TYPE, exposition } from '../../shared/metrics/exposition.ts';
import { gatherWorkers } from './gather.ts';

import type { NatsConnection } from 'nats';
import type { Registry } from 'prom-client';
import type { MetricFamily } from '../../shared/metrics/protocol.ts';
import type { Log } from '../log.ts';

export interface MetricsServerOptions {
  host: string;
  port: number;
  worker: string;
  registry: Registry;
  nc: NatsConnection;
  log: Log;
}

export interface MetricsServer {
  /** The port bound (METRICS_PORT=0 binds any free one). */
  port: number;
  close(): Promise<void>;
}

export async function startMetricsServer(options: MetricsServerOptions): Promise<MetricsServer> {
  const { host, worker, registry, nc, log } = options;
  const scrape = async (): Promise<string> => {
    const [own, workers] = await Promise.all([registry.getMetricsAsJSON(), gatherWorkers(nc)]);
    const stack: MetricFamily[] = withWorker(
      [
        droppedLogLines(log.dropped?.() ?? { request: 0, other: 0 }),
        {
          name: 'dict_metrics_workers_reporting',
          help: 'API workers whose metrics this scrape holds (fewer than running: a worker did not answer in time).',
          type: 'gauge',
          values: [{ labels: {}, value: workers.length }],
        },
      ],
      worker,
    );
    // prom-client's typings give `type` as an enum; at run time it is the string the wire schema names.
    return exposition([[...(own as unknown as MetricFamily[]), ...stack], ...workers.map((w) => w.families)]);
  };

  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: the metrics are at GET /metrics\n');
      return;
    }
    scrape().then(
      (text) => res.writeHead(200, { 'content-type': CONTENT_TYPE }).end(text),
      (error: unknown) => {
        log.error({ msg: 'metrics scrape failed', error: String(error) });
        res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : options.port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
