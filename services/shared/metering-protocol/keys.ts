// API key shape, display prefix and hashing: shared by the worker (hash before asking) and the service.
import { createHash, randomBytes } from 'node:crypto';

export const KEY_PREFIX = 'svc_live_';
/** Spec: the prefix and eight more characters are kept in clear for display. */
export const DISPLAY_PREFIX_LENGTH = 17;
export const KEY_PATTERN = /^svc_live_[0-9a-f]{40}$/;
/** SHA-256 as lower-case hex. */
export const KEY_HASH_PATTERN = /^[0-9a-f]{64}$/;
export const DISPLAY_PREFIX_PATTERN = /^svc_live_[0-9a-f]{8}$/;

/** 20 random bytes from the OS CSPRNG = 40 hex characters (160 bits). */
export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(20).toString('hex');
}

export function hashApiKey(apiKey: string): string {
  return createHash('sha256').update(apiKey).digest('hex');
}

export function displayPrefix(apiKey: string): string {
  return apiKey.slice(0, DISPLAY_PREFIX_LENGTH);
}

export function isWellFormedKey(apiKey: string): boolean {
  return apiKey.length === KEY_PREFIX.length + 40 && KEY_PATTERN.test(apiKey);
}
