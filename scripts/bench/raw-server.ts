// The ceiling: a bare uWebSockets.js server answering each captured request with the bytes the stack sent
// (same status, body and headers), doing nothing else. Run one per API worker on one port (SO_REUSEPORT).
// Given a CPU cost per request, it is the cost-matched ceiling: before each response it burns as much CPU as
// brings its own CPU per request to that cost (cpu-matcher.ts), the stack's cost without any of the stack's
// variation (see http-bench.ts).
// Usage: node --import tsx scripts/bench/raw-server.ts <port> <responses.json> [CPU µs per request]
import fs from 'node:fs';
import uWS from 'uWebSockets.js';

import { headerBlock } from '../../services/api/http/headers.ts';
import { CpuMatcher } from './cpu-matcher.ts';

import type { HeaderBlock } from '../../services/api/http/headers.ts';

export interface CapturedResponse {
  status: string;
  headers: [string, string][];
  body: string;
}

export interface CapturedRoutes {
  /** Keyed by path plus query string exactly as wrk sends it. */
  exact: Record<string, CapturedResponse>;
  /** Per path, bodies served in turn for queries not captured (the search mix). */
  pools: Record<string, CapturedResponse[]>;
}

interface Prepared {
  status: string;
  /** Written in one call, as the API workers write theirs: the ceiling sends bytes the cheapest way uWS can. */
  headers: HeaderBlock | undefined;
  body: Buffer;
}

function prepare(r: CapturedResponse): Prepared {
  return { status: r.status, headers: r.headers.length === 0 ? undefined : headerBlock(r.headers), body: Buffer.from(r.body, 'utf8') };
}

/**
 * Spins until this process has used `micros` more CPU time (user + system). Measured in CPU time, not wall
 * time: a spin timed by the clock would burn less whenever the kernel preempts it, which is exactly when the
 * two cores are contended.
 */
function burnCpu(micros: number): void {
  if (micros <= 0) return;
  const start = process.cpuUsage();
  let used = 0;
  while (used < micros) {
    const now = process.cpuUsage(start);
    used = now.user + now.system;
  }
}

/** How often the matched server compares its CPU per request with the target. */
const MATCH_WINDOW_MS = 250;

/** Keeps the matcher fed with this process's CPU time, window by window. */
function measureWindows(matcher: CpuMatcher): void {
  let last = process.cpuUsage();
  setInterval(() => {
    const now = process.cpuUsage();
    matcher.endWindow(now.user - last.user + now.system - last.system);
    last = now;
  }, MATCH_WINDOW_MS).unref();
}

function main(): void {
  const [port, file, cpuArg] = process.argv.slice(2);
  // The matcher refuses anything but a number of µs >= 0; the plain ceiling (0) burns and measures nothing.
  const matcher = new CpuMatcher(cpuArg === undefined ? 0 : Number(cpuArg));
  const burning = matcher.targetMicros > 0;
  if (burning) measureWindows(matcher);
  const routes = JSON.parse(fs.readFileSync(file, 'utf8')) as CapturedRoutes;
  const exact = new Map(Object.entries(routes.exact).map(([k, v]) => [k, prepare(v)]));
  const pools = new Map(Object.entries(routes.pools).map(([k, v]) => [k, v.map(prepare)]));
  const notFound = prepare({ status: '404 Not Found', headers: [['content-type', 'text/plain']], body: 'not captured' });
  let turn = 0;

  uWS
    .App()
    .any('/*', (res, req) => {
      const url = req.getUrl();
      const query = req.getQuery();
      let r = exact.get(query ? `${url}?${query}` : url);
      if (!r) {
        const pool = pools.get(url);
        r = pool ? pool[turn++ % pool.length] : notFound;
      }
      const response = r;
      if (burning) {
        burnCpu(matcher.burnMicros);
        matcher.served();
      }
      res.cork(() => {
        res.writeStatus(response.status);
        if (response.headers) res.writeHeader(response.headers.name, response.headers.value);
        res.end(response.body);
      });
    })
    .listen('127.0.0.1', Number(port), (socket) => {
      if (!socket) {
        console.error(`raw server: cannot listen on 127.0.0.1:${port}`);
        process.exit(1);
      }
      console.log(`raw server ${process.pid} listening on 127.0.0.1:${port}, CPU per request matched to ${matcher.targetMicros} µs`);
    });
}

main();
