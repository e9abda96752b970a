// GET /api/v1/openapi.json: the OpenAPI 3.1.0 description, generated from the route descriptors once at start-up
// and served as cached bytes (compressed once per coding a client asks for).
import { CompressedBody } from '../http/compression.ts';
import { JSON_CONTENT_TYPE, OPENAPI_CACHE_CONTROL } from '../http/headers.ts';
import { sendCompressible } from '../http/send-compressible.ts';
import { buildOpenApiDocument } from '../openapi/document.ts';
import { referenceExamples } from '../openapi/examples.ts';

import type { ApiRoute } from '../http/route.ts';

export const openApiGet: ApiRoute = {
  kind: 'api',
  method: 'GET',
  path: '/api/v1/openapi.json',
  handler: ({ deps, routes }) => {
    // Compressed once per coding, on first request.
    const body = new CompressedBody(Buffer.from(JSON.stringify(buildOpenApiDocument(routes, deps.snapshot.languages(), referenceExamples(deps.snapshot)))));
    return (req, res, ctx) => {
      res.header('cache-control', OPENAPI_CACHE_CONTROL);
      res.header('content-type', JSON_CONTENT_TYPE);
      sendCompressible(req, res, body, ctx.close);
    };
  },
};
