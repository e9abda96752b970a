// GET /healthz: for load balancers and pm2 checks; no key, not metered, not in the OpenAPI description. Its
// public answer is the state (ok, degraded, down) and the snapshot served: whether metering is reachable and
// why it cannot commit are for operators (the metrics port's dict_metering_can_commit and
// dict_metering_storage_error_info, the logs), not for anyone who can reach the API.
import { NO_STORE } from '../http/headers.ts';
import { sendJson } from '../http/pipeline.ts';

import type { ApiRoute } from '../http/route.ts';
import type { MeteringHealth } from '../metering-client/meter.ts';

export const healthzGet: ApiRoute = {
  kind: 'api',
  method: 'GET',
  path: '/healthz',
  handler: ({ deps }) => {
    const { version, builtAt, contentHash, formatVersion, sample } = deps.snapshot.meta;
    // A worker serving an older snapshot than configured (its own failed its check) answers, but says degraded,
    // and which file it serves instead (publish:snapshot's operator reads it through the proxy).
    const fallback = deps.snapshotFallback;
    const snapshot = { version, builtAt, contentHash, formatVersion, sample, ...(fallback ? { fallback } : {}) };
    return async (_req, res, ctx) => {
      const health: MeteringHealth = await deps.meter.health().catch(() => ({ reachable: false, canCommit: false }));
      // 503 when metering is unreachable (down) or cannot commit (degraded): this worker would refuse every
      // metered request it holds no lease for, and every registration.
      const ok = health.reachable && health.canCommit;
      const status = !health.reachable ? 'down' : ok && fallback === undefined ? 'ok' : 'degraded';
      res.header('cache-control', NO_STORE);
      sendJson(res, ctx, ok ? 200 : 503, JSON.stringify({ status, snapshot }));
    };
  },
};
