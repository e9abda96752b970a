// Records what the stack answers for each benchmarked request (status, headers, body), for the raw ceiling
// server to send back byte for byte.
import type { CapturedResponse, CapturedRoutes } from './raw-server.ts';
import { request } from './keys.ts';

/** Headers the server writes itself (framing, date, its own mark); everything else is replayed. */
const SERVER_WRITTEN = new Set(['date', 'content-length', 'connection', 'keep-alive', 'transfer-encoding', 'uwebsockets']);

export async function capture(base: string, path: string, apiKey: string): Promise<CapturedResponse> {
  const res = await request(base, 'GET', path, { headers: { 'x-api-key': apiKey } });
  const headers: [string, string][] = [];
  for (const [name, value] of Object.entries(res.headers)) {
    if (SERVER_WRITTEN.has(name) || value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.push([name, v]);
  }
  const reason = res.status === 200 ? 'OK' : res.status === 304 ? 'Not Modified' : 'Captured';
  return { status: `${res.status} ${reason}`, headers, body: res.body };
}

export async function captureRoutes(base: string, apiKey: string, exactPaths: readonly string[], pools: Record<string, readonly string[]>): Promise<{ routes: CapturedRoutes; failures: string[]; poolFailures: string[] }> {
  const routes: CapturedRoutes = { exact: {}, pools: {} };
  const failures: string[] = [];
  const poolFailures: string[] = [];
  for (const path of exactPaths) {
    const r = await capture(base, path, apiKey);
    if (!r.status.startsWith('200')) failures.push(`${path}: ${r.status} ${r.body.slice(0, 200)}`);
    routes.exact[path] = r;
  }
  for (const [pathname, paths] of Object.entries(pools)) {
    routes.pools[pathname] = [];
    for (const path of paths) {
      const r = await capture(base, path, apiKey);
      // A failing search is reported, and left out of what the raw server replays.
      if (!r.status.startsWith('200')) poolFailures.push(`${decodeURIComponent(path)}: ${r.status} ${r.body.slice(0, 200)}`);
      else routes.pools[pathname].push(r);
    }
  }
  return { routes, failures, poolFailures };
}
