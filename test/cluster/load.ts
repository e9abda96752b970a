// Load spread over a cluster's hosts for the netns test: a few requests in flight per host address, each answer
// (or transport failure) recorded with its time, host and error code; and registrations, each acknowledged key
// kept, to check afterwards that none was lost; and keys driven to their daily limit through every host at once.
import { setTimeout as sleep } from 'node:timers/promises';

/** A request still unanswered after this long counts as failed: a cut link never answers. */
const REQUEST_TIMEOUT_MS = 2_000;

export interface Answer {
  host: number;
  at: number;
  status: number;
  /** The error body's code, or `transport` when no answer came. */
  code?: string;
  /** X-RateLimit-Used, on an answer that has it. */
  used?: number;
}

export interface Load {
  answers: Answer[];
  /** Keys whose registration was answered 201. */
  registered: { host: number; at: number; apiKey: string; email: string }[];
  stop(): Promise<void>;
}

async function once(host: number, url: string, init: RequestInit): Promise<Answer & { body?: unknown }> {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    const body = (await res.json().catch(() => undefined)) as { error?: { code?: string } } | undefined;
    const used = res.headers.get('x-ratelimit-used');
    return { host, at: Date.now(), status: res.status, code: body?.error?.code, used: used === null ? undefined : Number(used), body };
  } catch {
    return { host, at: Date.now(), status: 0, code: 'transport' };
  }
}

/** A registration through `base` from an address of its own (the hosts trust the bridge's X-Forwarded-For). */
export async function registerThrough(base: string, email: string, host = 0): Promise<Answer & { body?: unknown }> {
  return once(host, `${base}/api/v1/developers`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': nextClientAddress() },
    body: JSON.stringify({ name: 'Cluster test', email }),
  });
}

let clientAddresses = Math.floor(Math.random() * 60_000);
/** Addresses of the benchmarking range 198.18.0.0/15 (RFC 2544): one per registration. */
const nextClientAddress = () => {
  const n = clientAddresses++ % 65_536;
  return `198.18.${n >> 8}.${n & 255}`;
};

export function startLoad(baseUrls: readonly string[], apiKey: string, perHost: number, path: string): Load {
  const answers: Answer[] = [];
  const registered: Load['registered'] = [];
  let running = true;
  const loops = baseUrls.flatMap((base, host) =>
    Array.from({ length: perHost }, async () => {
      while (running) {
        const answer = await once(host, `${base}${path}`, { headers: { authorization: `Bearer ${apiKey}` } });
        answers.push({ host: answer.host, at: answer.at, status: answer.status, code: answer.code, used: answer.used });
        if (answer.status === 0) await sleep(100);
      }
    }),
  );
  let n = 0;
  const registrations = (async () => {
    while (running) {
      const host = n % baseUrls.length;
      const email = `cluster-${n++}-${Date.now()}@example.org`;
      const answer = await registerThrough(baseUrls[host], email, host);
      const apiKey = (answer.body as { apiKey?: string } | undefined)?.apiKey;
      if (answer.status === 201 && apiKey) registered.push({ host, at: answer.at, apiKey, email });
      await sleep(300);
    }
  })();
  return {
    answers,
    registered,
    async stop() {
      running = false;
      await Promise.all([...loops, registrations]);
    },
  };
}

export interface Drive {
  /** Every answer, for every key driven. */
  answers: (Answer & { key: number })[];
  /** Resolves once every host has refused every key with quota_exceeded, or once stopped. */
  done: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Drives each of `apiKeys` to its limit through all `baseUrls` at once (one request in flight per key and
 * host): a host's loop for a key ends at its first quota_exceeded.
 */
export function driveToLimit(baseUrls: readonly string[], apiKeys: readonly string[], path: string): Drive {
  const answers: Drive['answers'] = [];
  let running = true;
  const loops = apiKeys.flatMap((apiKey, key) =>
    baseUrls.map(async (base, host) => {
      while (running) {
        const answer = await once(host, `${base}${path}`, { headers: { authorization: `Bearer ${apiKey}` } });
        answers.push({ key, host: answer.host, at: answer.at, status: answer.status, code: answer.code, used: answer.used });
        if (answer.status === 429) return;
        if (answer.status !== 200) await sleep(100);
      }
    }),
  );
  const done = Promise.all(loops).then(() => undefined);
  return {
    answers,
    done,
    async stop() {
      running = false;
      await done;
    },
  };
}

/** The span (ms) from the first to the last answer of `host` after `from` that is not a 200. */
export function refusalSpan(answers: readonly Answer[], host: number, from: number, to: number): { span: number; codes: Set<string>; failures: number; served: number } {
  const window = answers.filter((a) => a.host === host && a.at >= from && a.at <= to);
  const failed = window.filter((a) => a.status !== 200);
  const codes = new Set(failed.map((a) => `${a.status} ${a.code ?? ''}`));
  const span = failed.length === 0 ? 0 : failed[failed.length - 1].at - failed[0].at;
  return { span, codes, failures: failed.length, served: window.length - failed.length };
}
