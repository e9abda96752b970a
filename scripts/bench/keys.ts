// API keys for the bench: registered through POST /api/v1/developers like any client, then raised to the
// institution plan with the operator CLI, as an operator would.
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

import { DAILY_LIMITS, KEY_CREATION_LIMIT } from '../../services/shared/plans.ts';
import { runAsync } from './processes.ts';
import type { Stack } from './stack.ts';

const PLAN_TIMEOUT_MS = 10_000;

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * One request from a chosen loopback source address: the key-creation throttle counts per peer address, and
 * the bench needs more keys than one address may create (every 127.0.0.0/8 address is this machine).
 */
export function request(base: string, method: string, pathname: string, opts: { body?: string; headers?: Record<string, string>; localAddress?: string } = {}): Promise<Reply> {
  const url = new URL(pathname, base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method,
        headers: { ...(opts.body ? { 'content-type': 'application/json' } : {}), ...opts.headers },
        localAddress: opts.localAddress,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** Registrations in flight at once. */
const REGISTRATION_CONCURRENCY = 8;
/** Registrations made by this process so far: each one's source address is the next free one. */
let registered = 0;

/**
 * Registers `count` keys for one developer, spreading the registrations over source addresses: the throttle
 * allows KEY_CREATION_LIMIT per address per 15 minutes, and no two calls share an address.
 */
export async function registerKeys(stack: Stack, email: string, count: number): Promise<string[]> {
  const first = registered;
  registered += count;
  const keys: string[] = new Array<string>(count);
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const i = next++;
      const slot = Math.floor((first + i) / KEY_CREATION_LIMIT);
      const localAddress = `127.${1 + Math.floor(slot / 62_500)}.${Math.floor(slot / 250) % 250}.${2 + (slot % 250)}`;
      const body = JSON.stringify({ name: 'Bench', email, organization: 'bench', useCase: 'npm run bench', keyName: `bench-${first + i}` });
      const res = await request(stack.base, 'POST', '/api/v1/developers', { body, localAddress });
      if (res.status !== 201) throw new Error(`POST /api/v1/developers answered ${res.status}: ${res.body}`);
      keys[i] = (JSON.parse(res.body) as { apiKey: string }).apiKey;
    }
  };
  await Promise.all(Array.from({ length: REGISTRATION_CONCURRENCY }, lane));
  return keys;
}

/**
 * `npm run ops -- developers set-plan <email> institution --all-keys` in the subject's tree, against the stack's
 * NATS: every key the bench registered under its one email. A subject whose set-plan knows no --all-keys (it
 * changed every key of the developer) refuses the flag as bad usage (exit 2) and is asked without it.
 */
export async function raiseToInstitution(stack: Stack, root: string, email: string, probeKey: string): Promise<string> {
  const setPlan = (flags: string[]) =>
    runAsync('npm', ['run', '--silent', 'ops', '--', 'developers', 'set-plan', email, 'institution', ...flags], { env: stack.env, cwd: root });
  let { code, stdout, stderr } = await setPlan(['--all-keys']);
  if (code === 2) ({ code, stdout, stderr } = await setPlan([]));
  if (code !== 0) throw new Error(`ops set-plan failed (exit ${code}):\n${stdout}\n${stderr}`);
  // Plan changes reach the workers by broadcast; wait until a metered response shows the new limit.
  const deadline = Date.now() + PLAN_TIMEOUT_MS;
  const wanted = String(DAILY_LIMITS.institution);
  let last = '';
  while (Date.now() < deadline) {
    const res = await request(stack.base, 'GET', '/api/v1/languages', { headers: { 'x-api-key': probeKey } });
    last = `${res.status} X-RateLimit-Limit=${String(res.headers['x-ratelimit-limit'])}`;
    if (res.status === 200 && res.headers['x-ratelimit-limit'] === wanted) return stdout.trim();
    await sleep(200);
  }
  throw new Error(`the institution plan did not take effect within ${PLAN_TIMEOUT_MS} ms (last: ${last})`);
}
