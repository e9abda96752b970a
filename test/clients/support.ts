// Helpers for the TypeScript client's tests: a client on a test stack with its waits recorded instead of made.
import { DictionaryClient } from '../../clients/typescript/src/index.ts';
import { fakeClientIp } from '../support/stack.ts';

import type { ClientOptions, DictionaryApiError, WaitInfo } from '../../clients/typescript/src/index.ts';
import type { Stack } from '../support/stack.ts';

/** An injected sleep: records each wait (and what onWait was told) and returns at once, or runs `then`. */
export class Waits {
  readonly ms: number[] = [];
  readonly seen: WaitInfo[] = [];
  constructor(private readonly then: () => Promise<void> = async () => undefined) {}
  readonly sleep = async (ms: number): Promise<void> => {
    this.ms.push(ms);
    await this.then();
  };
  readonly onWait = (info: WaitInfo): void => {
    this.seen.push(info);
  };
}

/**
 * A client of `stack` sending from `address` (the stack trusts X-Forwarded-For from 127.0.0.1; a fresh address
 * by default, so the per-address registration throttle meets only the test that seeks it).
 */
export function clientOf(stack: Stack, options: Partial<ClientOptions> & { address?: string; waits?: Waits } = {}): DictionaryClient {
  const { address = fakeClientIp(), waits = new Waits(), ...rest } = options;
  return new DictionaryClient({
    baseUrl: stack.baseUrl,
    headers: { 'x-forwarded-for': address },
    sleep: waits.sleep,
    onWait: waits.onWait,
    ...rest,
  });
}

/** A client with a fresh free key, the key and its developer's email. */
export async function keyedClient(stack: Stack): Promise<{ client: DictionaryClient; apiKey: string; email: string }> {
  const client = clientOf(stack);
  const email = `ts-${process.pid}-${Date.now()}-${Math.random().toString(16).slice(2)}@example.org`;
  const { body } = await client.register({ name: 'Test Developer', email });
  return { client: client.withApiKey(body.apiKey), apiKey: body.apiKey, email };
}

/** The DictionaryApiError `call` rejects with (fails the test when it resolves). */
export async function failureOf(call: Promise<unknown>): Promise<DictionaryApiError> {
  try {
    await call;
  } catch (error) {
    return error as DictionaryApiError;
  }
  throw new Error('expected the call to fail');
}

/** An error as one line for assertion messages. */
export const shown = (error: DictionaryApiError): string =>
  JSON.stringify({ code: error.code, status: error.status, message: error.message, details: error.details, retryAfterSeconds: error.retryAfterSeconds });
