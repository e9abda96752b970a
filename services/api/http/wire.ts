// Wires route descriptors onto the app: a metered route onto the fast path (metered-get.ts), every other one
// through the pipeline (pipeline.ts) on hyper-express's router, each GET registered for HEAD too (hyper-express
// answers HEAD only where a route is registered for it; the adapter answers it without a body).
import { registerMeteredGet } from './metered-get.ts';
import { apiPipeline, pagePipeline } from './pipeline.ts';
import { routeName, serverPattern } from './route.ts';

import type { Deps } from '../deps.ts';
import type { HyperHandler, PageFailure, PageGuard } from './pipeline.ts';
import type { Route, RouteSetup } from './route.ts';
import type { Server } from 'hyper-express';

/** `pageGuard`: the website's allowance of pages, run before every page that is not `unlimited`. */
export function wireRoutes(app: Server, deps: Deps, routes: readonly Route[], pageFailed: PageFailure, pageGuard?: PageGuard): void {
  const setup: RouteSetup = { deps, app, routes };
  for (const route of routes) {
    const pattern = serverPattern(route.path);
    if (route.kind === 'metered') {
      registerMeteredGet(app, deps, { pattern, route: routeName(route), endpoint: route.endpoint, handle: route.handler(setup) });
      continue;
    }
    const handler = pipelineOf(app, setup, route, pageFailed, pageGuard);
    if (route.method === 'GET') {
      app.get(pattern, handler);
      app.head(pattern, handler);
    } else if (route.method === 'POST') app.post(pattern, handler);
    else app.options(pattern, handler);
  }
}

function pipelineOf(
  app: Server,
  setup: RouteSetup,
  route: Exclude<Route, { kind: 'metered' }>,
  pageFailed: PageFailure,
  pageGuard: PageGuard | undefined,
): HyperHandler {
  const bodyLimitBytes = route.method === 'POST' ? route.bodyLimitBytes : undefined;
  if (route.kind === 'api') {
    return apiPipeline(app, setup.deps, routeName(route), route.handler(setup), { cors: route.cors, bodyLimitBytes, streams: route.streams });
  }
  const guard = route.unlimited ? undefined : pageGuard;
  return pagePipeline(setup.deps, routeName(route), route.handler(setup), pageFailed, { bodyLimitBytes, guard });
}
