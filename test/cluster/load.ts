// Load spread over a cluster's hosts for the netns test: a few requests in flight per host address, each answer
// (or transport failure) recorded with its time, host and error code; and registrations, each acknowledged key
// kept, to check afterwards that none was lost.
import { setTimeout as sleep } from 'node:timers/promises';

/** A request still unanswered after this long counts as failed: a cut link never answers. */
const REQUEST_TIMEOUT_MS = 2_000;

export interface Answer {
  host: number;
  at: number;
  status: number;
  /** The error body's code, or `transport` when no answer came. */
  code?: string;
}

export interface Load {
  answers: Answer[];
  /** Keys whose registration was answered 201. */
  registered: { host: number; apiKey: string; email: string }[];
  stop(): Promise<void>;
}

async function once(host: number, url: string, init: RequestInit): Promise<Answer & { body?: unknown }> {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    const body = (await res.json().catch(() => undefined)) as { error?: { code?: string } } | undefined;
    return { host, at: Date.now(), status: res.status, code: body?.error?.code, body };
  } catch {
    return { host, at: Date.now(), status: 0, code: 'transport' };
  }
}

export function startLoad(baseUrls: readonly string[], apiKey: string, perHost: number, path: string): Load {
  const answers: Answer[] = [];
  const registered: Load['registered'] = [];
  let running = true;
  const loops = baseUrls.flatMap((base, host) =>
    Array.from({ length: perHost }, async () => {
      while (running) {
        const answer = await once(host, `${base}${path}`, { headers: { authorization: `Bearer ${apiKey}` } });
        answers.push({ host: answer.host, at: answer.at, status: answer.status, code: answer.code });
        if (answer.status === 0) await sleep(100);
      }
    }),
  );
  let n = 0;
  const registrations = (async () => {
    while (running) {
      const host = n % baseUrls.length;
      const email = `cluster-${n++}-${Date.now()}@example.org`;
      const answer = await once(host, `${baseUrls[host]}/api/v1/developers`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Cluster test', email }),
      });
      const apiKey = (answer.body as { apiKey?: string } | undefined)?.apiKey;
      if (answer.status === 201 && apiKey) registered.push({ host, apiKey, email });
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

/** The span (ms) from the first to the last answer of `host` after `from` that is not a 200. */
export function refusalSpan(answers: readonly Answer[], host: number, from: number, to: number): { span: number; codes: Set<string>; failures: number; served: number } {
  const window = answers.filter((a) => a.host === host && a.at >= from && a.at <= to);
  const failed = window.filter((a) => a.status !== 200);
  const codes = new Set(failed.map((a) => `${a.status} ${a.code ?? ''}`));
  const span = failed.length === 0 ? 0 : failed[failed.length - 1].at - failed[0].at;
  return { span, codes, failures: failed.length, served: window.length - failed.length };
}
