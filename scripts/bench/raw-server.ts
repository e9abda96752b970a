// The ceiling: a bare uWebSockets.js server answering each captured request with the bytes the stack sent
// (same status, body and headers), doing nothing else. Run one per API worker on one port (SO_REUSEPORT).
// Usage: node --import tsx scripts/bench/raw-server.ts <port> <responses.json>
import fs from 'node:fs';
import uWS from 'uWebSockets.js';

import { headerBlock } from '../../services/api/http/headers.ts';

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

function main(): void {
  const [port, file] = process.argv.slice(2);
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
      console.log(`raw server ${process.pid} listening on 127.0.0.1:${port}`);
    });
}

main();
