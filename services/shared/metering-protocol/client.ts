// The one typed request helper: validates the payload, sends it, maps transport failures to
// MeteringUnavailableError and service errors to MeteringServiceError, validates the reply.
import { ServiceErrorCodeHeader, type NatsConnection } from 'nats';
import type { z } from 'zod';

import { MeteringUnavailableError } from '../domain-errors.ts';
import { errorBody, type ErrorKind, type Rpc } from './protocol.ts';

/** Fail closed fast: a metering answer later than this is treated as no answer (issue 3: about 1 s). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 1000;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function encodeJson(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value));
}

export function decodeJson(data: Uint8Array): unknown {
  return data.length === 0 ? null : JSON.parse(decoder.decode(data));
}

/** The metering service answered with an error (code + description, per the NATS services pattern). */
export class MeteringServiceError extends Error {
  override readonly name = 'MeteringServiceError';
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly parameter?: string,
  ) {
    super(message);
  }
}

export async function call<Req extends z.ZodTypeAny, Rep extends z.ZodTypeAny>(
  nc: NatsConnection,
  rpc: Rpc<Req, Rep>,
  payload: z.input<Req>,
  options: { timeoutMs?: number; subject?: string } = {},
): Promise<z.output<Rep>> {
  const body: unknown = rpc.request.parse(payload);
  const subject = options.subject ?? rpc.subject;
  let reply;
  try {
    reply = await nc.request(subject, encodeJson(body), { timeout: options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS });
  } catch (err) {
    // No responders (at once), timeout, closed or draining connection: all mean "not answered".
    throw new MeteringUnavailableError(`metering request ${subject} failed: ${(err as Error).message}`, {
      cause: err,
    });
  }
  if (reply.headers?.get(ServiceErrorCodeHeader)) {
    const parsed = errorBody.safeParse(tryDecodeJson(reply.data));
    if (parsed.success) {
      const { kind, message, parameter } = parsed.data.error;
      throw new MeteringServiceError(kind, message, parameter);
    }
    throw new MeteringServiceError('internal', reply.headers.get('Nats-Service-Error') || 'metering error');
  }
  const parsed = rpc.reply.safeParse(tryDecodeJson(reply.data));
  if (!parsed.success) {
    throw new MeteringUnavailableError(`metering reply on ${subject} is malformed: ${parsed.error.message}`);
  }
  return parsed.data;
}

/** decodeJson, or null for a body that is not JSON. */
export function tryDecodeJson(data: Uint8Array): unknown {
  try {
    return decodeJson(data);
  } catch {
    return null;
  }
}
