// GET /api/v1/openapi.json: the OpenAPI 3.1.0 description, built once at start-up and served as cached bytes.
import { z } from 'zod';

import { OPENAPI_CACHE_CONTROL } from '../http/headers.ts';
import { pipeline, sendJson } from '../http/pipeline.ts';
import { buildOpenApiDocument } from '../openapi/document.ts';

import type { Deps } from '../deps.ts';
import type { Server } from 'hyper-express';

export const openApiGetQuerySchema = z.object({});

export function registerOpenApiGet(app: Server, deps: Deps): void {
  const body = JSON.stringify(buildOpenApiDocument(deps.snapshot.languages()));
  app.get(
    '/api/v1/openapi.json',
    pipeline(app, deps, 'GET /api/v1/openapi.json', (_req, res, ctx) => {
      res.header('cache-control', OPENAPI_CACHE_CONTROL);
      sendJson(res, ctx, 200, body);
    }),
  );
}
