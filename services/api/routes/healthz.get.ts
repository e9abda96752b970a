// GET /healthz: for load balancers and pm2 checks; no key, not metered, not in the OpenAPI description.
import { z } from 'zod';

import { NO_STORE } from '../http/headers.ts';
import { pipeline, sendJson } from '../http/pipeline.ts';

import type { Deps } from '../deps.ts';
import type { Server } from 'hyper-express';

export const healthzQuerySchema = z.object({});

export function registerHealthz(app: Server, deps: Deps): void {
  const { version, builtAt, contentHash, formatVersion, sample } = deps.snapshot.meta;
  const snapshot = { version, builtAt, contentHash, formatVersion, sample };
  app.get(
    '/healthz',
    pipeline(app, deps, 'GET /healthz', async (_req, res, ctx) => {
      const reachable = await deps.meter.reachable().catch(() => false);
      res.header('cache-control', NO_STORE);
      // 503 when metering is unreachable: this worker would refuse every metered request it holds no lease for.
      sendJson(
        res,
        ctx,
        reachable ? 200 : 503,
        JSON.stringify({ status: reachable ? 'ok' : 'degraded', snapshot, metering: { reachable } }),
      );
    }),
  );
}
