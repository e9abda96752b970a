// Sends a response body of the pipeline in the best content coding the client accepts (website pages, static
// files, the OpenAPI description); the metered routes have their own path (metered-get.ts).
import { COMPRESS_MIN_BYTES, CompressedBody, compress, negotiate } from './compression.ts';

import type { PipelineRequest, PipelineResponse } from './exchange.ts';

/**
 * Sends `body` in the best coding the client accepts: a kept body's stored compressed bytes, or a body made
 * for this response compressed now (website pages only: the metered routes never compress per request).
 */
export function sendCompressible(req: PipelineRequest, res: PipelineResponse, body: Buffer | CompressedBody, closeConnection = false): void {
  const identity = body instanceof CompressedBody ? body.identity : body;
  if (identity.length < COMPRESS_MIN_BYTES) {
    res.send(identity, closeConnection);
    return;
  }
  res.header('Vary', 'Accept-Encoding');
  const acceptEncoding = req.headers['accept-encoding'];
  const coding = body instanceof CompressedBody ? body.codingFor(acceptEncoding) : negotiate(acceptEncoding);
  if (coding === undefined) {
    res.send(identity, closeConnection);
    return;
  }
  const encoded = body instanceof CompressedBody ? body.bytes(coding) : compress(body, coding, 'perRequest');
  res.header('Content-Encoding', coding);
  res.send(encoded ?? identity, closeConnection);
}
