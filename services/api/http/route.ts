// A route as one description: method, path, metering, the zod schemas of its input, its documented responses,
// its OpenAPI text and its handler. The worker is wired from the list of them (services/api/routes.ts) and the
// OpenAPI description is generated from the same list (openapi/document.ts), in the manner of @hono/zod-openapi's
// createRoute: a document assembled beside the routes drifts from them.
import type { MeteredEndpoint } from '../../shared/plans.ts';
import type { Deps } from '../deps.ts';
import type { BodyRequest, PipelineRequest, PipelineResponse } from './exchange.ts';
import type { MeteredGetHandler } from './metered-get.ts';
import type { RequestContext } from './pipeline.ts';
import type { Server } from 'hyper-express';
import type { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

/** A response of the description: one of the shared ones (components.ts), or its own. */
export type ResponseDoc =
  | { readonly $ref: string }
  | {
      readonly description: string;
      /** OpenAPI header objects (or $refs to the shared ones) by name. */
      readonly headers?: Readonly<Record<string, unknown>>;
      /** The JSON body: a zod schema (a named component is referred to by name), or JSON Schema as written. */
      readonly body?: z.ZodTypeAny | JsonSchema;
    };

/** What the OpenAPI description says of a route; routes without it (the website, /healthz) are not listed. */
export interface OperationDoc {
  readonly operationId: string;
  readonly tags: readonly string[];
  readonly summary: string;
  readonly description?: string;
  /** The responses the description lists, by status. */
  readonly responses: Readonly<Record<number, ResponseDoc>>;
  /**
   * Where the spec makes the description differ from what the route enforces (Versioning 3), the query or
   * body the description shows instead of the route's own schema.
   */
  readonly documentedQuery?: z.AnyZodObject;
  readonly documentedBody?: z.ZodTypeAny;
  /** Statuses the route can answer that the description leaves out, each by a rule of the spec. */
  readonly undocumentedStatuses?: readonly number[];
}

/** The zod schemas a route validates its input with: what the description shows, unless its documented* differ. */
export interface RequestSchemas {
  readonly query?: z.AnyZodObject;
  readonly params?: z.AnyZodObject;
  readonly body?: z.ZodTypeAny;
}

/** What a route's handler is made with, once, when the worker is wired. */
export interface RouteSetup {
  readonly deps: Deps;
  readonly app: Server;
  /** Every route of the worker: the OpenAPI description and the reference page are made from them. */
  readonly routes: readonly Route[];
}

interface RouteBase {
  /** The path as the description writes it: `{name}` for a path parameter. */
  readonly path: string;
  readonly request?: RequestSchemas;
  readonly openapi?: OperationDoc;
}

/**
 * A metered GET (and its HEAD), served on the fast path (metered-get.ts): the key is admitted before the
 * handler, which returns its reply synchronously.
 */
export interface MeteredRoute extends RouteBase {
  readonly kind: 'metered';
  readonly method: 'GET';
  readonly endpoint: MeteredEndpoint;
  readonly handler: (setup: RouteSetup) => MeteredGetHandler;
}

export type ApiHandler<Req> = (req: Req, res: PipelineResponse, ctx: RequestContext) => void | Promise<void>;
export type PageHandler<Req> = (req: Req, res: PipelineResponse) => void | Promise<void>;

/** The rest of the API (registration, the description, health, downloads): the pipeline, errors in JSON. */
export type ApiRoute = RouteBase & {
  readonly kind: 'api';
  /** Send the CORS headers (default): false for a route no page of another origin may read. */
  readonly cors?: boolean;
  /** Streams its body: its response is written by the adapter, which drops clients that stop reading. */
  readonly streams?: boolean;
} & (
    | { readonly method: 'GET'; readonly handler: (setup: RouteSetup) => ApiHandler<PipelineRequest> }
    | { readonly method: 'POST'; readonly bodyLimitBytes: number; readonly handler: (setup: RouteSetup) => ApiHandler<BodyRequest> }
  );

/**
 * The website's pages and files, and the CORS preflights: the pipeline without the API's request log line (but
 * counted in the metrics under their own route names), a failure answered with the website's error page.
 */
export type PageRoute = RouteBase & {
  readonly kind: 'page';
  /**
   * Not counted against the address's allowance of pages (web/page-guard.ts): the website's files (kept
   * compressed in memory, cached by browsers for a year) and the API's CORS preflights.
   */
  readonly unlimited?: boolean;
} & (
    | { readonly method: 'GET' | 'OPTIONS'; readonly handler: (setup: RouteSetup) => PageHandler<PipelineRequest> }
    | { readonly method: 'POST'; readonly bodyLimitBytes: number; readonly handler: (setup: RouteSetup) => PageHandler<BodyRequest> }
  );

export type Route = MeteredRoute | ApiRoute | PageRoute;

/** `/api/v1/words/{id}` as the server's pattern, `/api/v1/words/:id`. */
export function serverPattern(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ':$1');
}

/** The route's name in the request log and the metrics: method and server pattern. */
export function routeName(route: Pick<Route, 'method' | 'path'>): string {
  return `${route.method} ${serverPattern(route.path)}`;
}
