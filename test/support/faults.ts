// Fault injection for reliability tests: a steady client load that records every request, kill -9 and
// restart of the processes of a pm2 stack (nats, metering, one api worker), and the checks made afterwards
// (usage counted, metering.db integrity).
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent } from 'node:http';
import http from 'node:http';

import Database from 'better-sqlite3';

import { HostLedger } from '../../services/api/metering-client/host-ledger.ts';
import { utcDay } from '../../services/shared/metering-protocol/day.ts';
import { hashApiKey } from '../../services/shared/metering-protocol/keys.ts';
import { countUnits } from '../../services/shared/metering-protocol/ranges.ts';
import { METERED_ENDPOINTS } from '../../services/shared/plans.ts';
import type { Pm2Stack } from './pm2-stack.ts';

/** One request of the load, as the client saw it. */
export interface Sample {
  path: string;
  /** Date.now() when sent and when the answer (or the failure) arrived. */
  start: number;
  end: number;
  /** HTTP status, or 0 when the connection failed or the request timed out. */
  status: number;
  /** error.code of an error body; 'timeout' or 'network' when there was no response. */
  code?: string;
}

export interface Load {
  readonly samples: readonly Sample[];
  /** Stops sending and waits for the requests in flight. */
  stop(): Promise<Sample[]>;
  /** Requests sent but not yet answered right now. */
  inFlight(): number;
}

export interface LoadOptions {
  baseUrl: string;
  apiKey: string;
  /** Paths requested in turn; each must answer 200 on a healthy service. */
  paths: readonly string[];
  /** Parallel clients (default 8). */
  concurrency?: number;
  /** A request with no answer after this long is recorded as a hang (default 5,000 ms). */
  timeoutMs?: number;
  /** Pause between requests of one client (default 2 ms): steady, not saturating, load. */
  pauseMs?: number;
}

export const DEFAULT_LOAD_TIMEOUT_MS = 5_000;

/** A steady load of keyed GETs over keep-alive connections, recording each outcome. */
export function startLoad(options: LoadOptions): Load {
  const url = new URL(options.baseUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency ?? 8 });
  const timeoutMs = options.timeoutMs ?? DEFAULT_LOAD_TIMEOUT_MS;
  const samples: Sample[] = [];
  let running = true;
  let inFlight = 0;
  let turn = 0;

  const one = (path: string) =>
    new Promise<Sample>((resolve) => {
      const start = Date.now();
      const done = (status: number, code?: string) => resolve({ path, start, end: Date.now(), status, code });
      const req = http.get(
        { agent, hostname: url.hostname, port: url.port, path, headers: { 'x-api-key': options.apiKey } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            clearTimeout(timer);
            let code: string | undefined;
            if ((res.statusCode ?? 0) >= 400) {
              try {
                code = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { error?: { code?: string } }).error?.code;
              } catch {
                code = 'unparseable';
              }
            }
            done(res.statusCode ?? 0, code);
          });
          res.on('error', () => done(0, 'network'));
        },
      );
      const timer = setTimeout(() => {
        req.destroy();
        done(0, 'timeout');
      }, timeoutMs);
      req.on('error', () => {
        clearTimeout(timer);
        done(0, 'network');
      });
    });

  const lanes = Array.from({ length: options.concurrency ?? 8 }, async () => {
    while (running) {
      const path = options.paths[turn++ % options.paths.length];
      inFlight++;
      const sample = await one(path);
      inFlight--;
      samples.push(sample);
      await sleep(options.pauseMs ?? 2);
    }
  });

  return {
    samples,
    inFlight: () => inFlight,
    async stop() {
      running = false;
      await Promise.all(lanes);
      agent.destroy();
      return samples;
    },
  };
}

/** Successful requests per path. */
export function successesByPath(samples: readonly Sample[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of samples) if (s.status >= 200 && s.status < 300) out.set(s.path, (out.get(s.path) ?? 0) + 1);
  return out;
}

export interface Pm2Process {
  name: string;
  pmId: number;
  pid: number;
  status: string;
  restarts: number;
  /** When pm2 last (re)started it, ms since epoch. */
  startedAt: number;
}

export async function pm2Processes(stack: Pm2Stack): Promise<Pm2Process[]> {
  const list = JSON.parse(await stack.pm2('jlist')) as {
    name: string;
    pm_id: number;
    pid: number;
    pm2_env: { status: string; restart_time: number; pm_uptime: number };
  }[];
  return list.map((p) => ({
    name: p.name,
    pmId: p.pm_id,
    pid: p.pid,
    status: p.pm2_env.status,
    restarts: p.pm2_env.restart_time,
    startedAt: p.pm2_env.pm_uptime,
  }));
}

/** The first online process of that pm2 app (for api: one worker). */
export async function pm2Process(stack: Pm2Stack, name: string): Promise<Pm2Process> {
  const found = (await pm2Processes(stack)).find((p) => p.name === name && p.status === 'online' && p.pid > 0);
  if (!found) throw new Error(`no online pm2 process named ${name}`);
  return found;
}

/** kill -9 of one process the test owns (started by its own pm2 daemon). */
export function kill9(pid: number): void {
  process.kill(pid, 'SIGKILL');
}

/** Waits until pm2 has the process with this pm_id online again under a new pid; returns it. */
export async function waitPm2Restarted(stack: Pm2Stack, pmId: number, oldPid: number, timeoutMs = 15_000): Promise<Pm2Process> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const p = (await pm2Processes(stack)).find((x) => x.pmId === pmId);
    if (p && p.status === 'online' && p.pid > 0 && p.pid !== oldPid) return p;
    if (Date.now() > deadline) throw new Error(`pm2 did not restart pm_id ${pmId} within ${timeoutMs} ms`);
    await sleep(50);
  }
}

/** `PRAGMA integrity_check` of a SQLite file, read-only (safe beside a live WAL writer). */
export function integrityCheck(dbPath: string): string {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    return (db.pragma('integrity_check', { simple: true }) as string) ?? '';
  } finally {
    db.close();
  }
}

/** Waits until `probe` resolves true (polling), or throws after `timeoutMs`. */
export async function waitUntil(what: string, probe: () => Promise<boolean>, timeoutMs: number, everyMs = 100): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(everyMs);
  }
}

export interface FaultCheck {
  /** Requests that got no answer within the load's timeout: must be none. */
  hangs: Sample[];
  /** Failures other than a fast internal_error (or a connection cut by a killed worker). */
  wrongFailures: Sample[];
  /** internal_error refusals slower than `refuseWithinMs`. */
  slowRefusals: Sample[];
  /** Failures of requests sent later than `resumeWithinMs` after the restart. */
  lateFailures: Sample[];
  successes: number;
  refusals: number;
  networkErrors: number;
}

export const REFUSE_WITHIN_MS = 1_500;
export const RESUME_WITHIN_MS = 5_000;

/**
 * Issue 8: during an outage, requests no held allowance covers are refused fast with internal_error, never
 * hang; full service resumes within 5 s of the restart. Connection errors are allowed only when the fault
 * killed an API worker (its in-flight requests and keep-alive sockets die with it) and only before the restart.
 */
export function checkFault(
  samples: readonly Sample[],
  fault: { restartedAt: number; workerKilled: boolean },
): FaultCheck {
  const out: FaultCheck = {
    hangs: [],
    wrongFailures: [],
    slowRefusals: [],
    lateFailures: [],
    successes: 0,
    refusals: 0,
    networkErrors: 0,
  };
  for (const s of samples) {
    if (s.status >= 200 && s.status < 300) {
      out.successes++;
      continue;
    }
    if (s.start > fault.restartedAt + RESUME_WITHIN_MS) out.lateFailures.push(s);
    if (s.code === 'timeout') out.hangs.push(s);
    else if (s.status === 0) {
      out.networkErrors++;
      if (!fault.workerKilled || s.start > fault.restartedAt) out.wrongFailures.push(s);
    } else if (s.status === 500 && s.code === 'internal_error') {
      out.refusals++;
      if (s.end - s.start > REFUSE_WITHIN_MS) out.slowRefusals.push(s);
    } else out.wrongFailures.push(s);
  }
  return out;
}

/** A short printable summary of samples for assertion messages. */
export function summarise(samples: readonly Sample[], limit = 10): string {
  return JSON.stringify(samples.slice(0, limit).map((s) => ({ ...s, ms: s.end - s.start })));
}

/** Metered endpoint name of a load path (as in usage rows and quota_exceeded details). */
export function endpointOf(path: string): string {
  const bare = path.split('?')[0];
  return /^\/api\/v1\/words\/[^/]+$/.test(bare) ? 'GET /api/v1/words/{id}' : `GET ${bare}`;
}

export interface UsageRow {
  keyPrefix: string;
  endpoint: string;
  used: number;
  held: number;
  limit: number;
}

/** `npm run ops -- usage <email> --json` (run through `ops`, which returns stdout), by endpoint. */
export async function usageByEndpoint(ops: (...args: string[]) => Promise<string>, email: string, date?: string): Promise<Map<string, UsageRow>> {
  const stdout = await ops('usage', email, ...(date ? ['--date', date] : []), '--json');
  const reply = JSON.parse(stdout) as { rows: UsageRow[] };
  return new Map(reply.rows.map((r) => [r.endpoint, r]));
}

/**
 * What the host's workers hold unused of a key's quota today, per endpoint, read from the host's ledger under
 * DATA_DIR: counted by metering, not yet served, and kept by the host for the day (docs/metering.md).
 */
export async function heldByHost(dataDir: string, apiKey: string): Promise<Map<string, number>> {
  const ledger = new HostLedger(dataDir);
  try {
    const day = utcDay(Date.now());
    return new Map(METERED_ENDPOINTS.map((e) => [e, countUnits(ledger.holding(hashApiKey(apiKey), e, day))]));
  } finally {
    await ledger.close();
  }
}

/**
 * Every success a client saw is counted (used >= successes), and over-counting is bounded by `bound` (the
 * allowance a dead process held plus the requests in flight at the fault), once the units the host still
 * holds unused (`held`, heldByHost) are set aside. Returns problems.
 */
export function checkCounted(successes: Map<string, number>, usage: Map<string, UsageRow>, bound: number, held = new Map<string, number>()): string[] {
  const out: string[] = [];
  const byEndpoint = new Map<string, number>();
  for (const [path, n] of successes) byEndpoint.set(endpointOf(path), (byEndpoint.get(endpointOf(path)) ?? 0) + n);
  for (const [endpoint, seen] of byEndpoint) {
    const used = (usage.get(endpoint)?.used ?? 0) - (held.get(endpoint) ?? 0);
    if (used < seen) out.push(`${endpoint}: ${seen} successes seen but only ${used} counted (served free)`);
    if (used - seen > bound) out.push(`${endpoint}: ${used} counted for ${seen} successes, over-count beyond ${bound}`);
  }
  return out;
}
