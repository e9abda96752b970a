// Plans, their daily limits and the metered endpoints: the one table both the metering service enforces
// and the website and docs publish.

export const PLANS = ['free', 'team', 'institution'] as const;
export type Plan = (typeof PLANS)[number];

/** Requests per key, per metered endpoint, per UTC day. */
export const DAILY_LIMITS: Readonly<Record<Plan, number>> = {
  free: 1_000,
  team: 50_000,
  institution: 500_000,
};

/** Metered endpoints, named as they appear in quota_exceeded details. */
export const METERED_ENDPOINTS = [
  'GET /api/v1/words',
  'GET /api/v1/words/{id}',
  'GET /api/v1/word-of-the-day',
  'GET /api/v1/languages',
  'GET /api/v1/stats',
] as const;
export type MeteredEndpoint = (typeof METERED_ENDPOINTS)[number];

/** Key-creation throttle (spec, Limits): 5 requests per IP address per 15-minute window. */
export const KEY_CREATION_LIMIT = 5;
export const KEY_CREATION_WINDOW_SECONDS = 900;
