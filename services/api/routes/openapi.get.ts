// GET /api/v1/openapi.json: the OpenAPI 3.1.0 description, built once at start-up and served as cached bytes
// (compressed once per coding a client asks for).
import { z } from 'zod';

import { CompressedBody } from '../http/compression.ts';
import { JSON_CONTENT_TYPE, OPENAPI_CACHE_CONTROL } from '../http/headers.ts';
import { pipeline } from '../http/pipeline.ts';
import { sendCompressible } from '../http/send-compressible.ts';
import { buildOpenApiDocument } from '../openapi/document.ts';

import type { Deps } from '../deps.ts';
import type { Server } from 'hyper-express';

export const openApiGetQuerySchema = z.object({});

export function registerOpenApiGet(app: Server, deps: Deps): void {
  // Compressed once per coding, on first request.
  const body = new CompressedBody(Buffer.from(JSON.stringify(buildOpenApiDocument(deps.snapshot.languages()))));
  app.get(
    '/api/v1/openapi.json',
    pipeline(app, deps, 'GET /api/v1/openapi.json', (req, res, ctx) => {
      res.header('cache-control', OPENAPI_CACHE_CONTROL);
      res.header('content-type', JSON_CONTENT_TYPE);
      sendCompressible(req, res, body, ctx.close);
    }),
  );
}
