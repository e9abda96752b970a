// GET /healthz: for load balancers and pm2 checks; no key, not metered, not in the OpenAPI description.
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
    // A worker serving an older snapshot than configured (its own failed its check) answers, but says degraded.
    const fallback = deps.snapshotFallback;
    const snapshot = { version, builtAt, contentHash, formatVersion, sample, ...(fallback ? { fallback } : {}) };
    return async (_req, res, ctx) => {
      const health: MeteringHealth = await deps.meter.health().catch(() => ({ reachable: false, canCommit: false }));
      // 503 when metering is unreachable or cannot commit: this worker would refuse every metered request it
      // holds no lease for, and every registration.
      const ok = health.reachable && health.canCommit;
      const metering = health.reachable
        ? { reachable: true, canCommit: health.canCommit, ...(health.storageError ? { storageError: health.storageError } : {}) }
        : { reachable: false };
      res.header('cache-control', NO_STORE);
      const status = ok && fallback === undefined ? 'ok' : 'degraded';
      sendJson(res, ctx, ok ? 200 : 503, JSON.stringify({ status, snapshot, metering }));
    };
  },
};
