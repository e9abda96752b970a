// The Host header checked against the names this service answers for (ALLOWED_HOSTS), when the operator lists
// them: a page on another site that rebinds its own name to this server's address (DNS rebinding) sends its own
// name as Host, and is refused before any route runs. Without a list every Host is served.
import { ApiError } from '../../shared/errors.ts';

/** The names, lower-cased, without ports; empty: any Host. */
export type AllowedHosts = ReadonlySet<string>;

/** A Host header's name: lower-cased, without its port (an IPv6 literal keeps its brackets). */
export function hostName(header: string): string {
  const host = header.trim().toLowerCase();
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return end === -1 ? host : host.slice(0, end + 1);
  }
  const colon = host.indexOf(':');
  return colon === -1 ? host : host.slice(0, colon);
}

/** Undefined when `header` names an allowed host (or none are listed), else the refusal to send. */
export function hostRefusal(allowed: AllowedHosts | undefined, header: string): ApiError | undefined {
  if (allowed === undefined || allowed.size === 0 || allowed.has(hostName(header))) return undefined;
  return new ApiError('bad_request', 'The Host header names no site this server answers for.');
}
