// Whether a request was sent by a browser page of another origin: key registration answers only this site's
// own pages and clients that are not browsers (OWASP API6: a page elsewhere harvesting keys through its
// visitors' browsers, or auto-submitting the sign-up form).

/** The request headers a browser sets and a page cannot forge (forbidden header names). */
export interface OriginHeaders {
  'sec-fetch-site'?: string;
  origin?: string;
  host?: string;
}

/**
 * Fetch metadata first: every current browser sends Sec-Fetch-Site, and only `same-origin` (or `none`, a
 * navigation the user started) is this site's own page; `same-site` is another origin too. Browsers without it
 * send Origin on every POST, compared by host with the Host the request was sent to (a TLS proxy in front
 * changes the scheme, not the host). A request with neither is not from a browser page (a server, curl): the
 * spec's registration stays open to those.
 */
export function isCrossOriginBrowser(headers: OriginHeaders): boolean {
  const site = headers['sec-fetch-site'];
  if (site !== undefined) return site !== 'same-origin' && site !== 'none';
  const origin = headers.origin;
  if (origin === undefined) return false;
  const host = headers.host;
  if (host === undefined) return true;
  try {
    // `null` (a sandboxed frame, a data: page) and anything unparsable are another origin.
    return new URL(origin).host.toLowerCase() !== host.toLowerCase();
  } catch {
    return true;
  }
}
