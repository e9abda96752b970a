// A client that sends one request at a time, on a new connection each time or on one keep-alive connection:
// the latency of a light key's requests set against a key at volume's (kept at volume meanwhile by wrk on two
// connections), alternating, so that both meet the same machine.
import http from 'node:http';
import path from 'node:path';

import type { BenchContext } from './context.ts';
import { startChild, stopChild } from './processes.ts';
import type { Stack } from './stack.ts';
import { percentile, sortedFloat64 } from './stats.ts';

export interface OneAtATime {
  mode: 'new connection' | 'keep-alive';
  requests: number;
  lightP50Ms: number;
  volumeP50Ms: number;
  addedP50Ms: number;
  lightP99Ms: number;
}

/** Measured requests per key and mode (a free key's day is 1,000), after WARMUP_REQUESTS. */
const REQUESTS = 800;
const WARMUP_REQUESTS = 50;
/** Longest the background load may run; it is stopped as soon as the measurement ends. */
const BACKGROUND_SECONDS = 600;

let address = 0;
/** A loopback source address per new connection, so that they spread over the workers. */
function nextAddress(): string {
  address++;
  return `127.200.${(address >> 8) & 255}.${(address & 255) || 1}`;
}

function timedGet(base: string, pathname: string, apiKey: string, agent: http.Agent | false): Promise<number> {
  const url = new URL(pathname, base);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: url.port, path: pathname, headers: { 'x-api-key': apiKey }, agent, ...(agent === false ? { localAddress: nextAddress() } : {}) },
      (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`status ${res.statusCode}`))));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function measureMode(stack: Stack, mode: OneAtATime['mode'], light: string, volume: string, pathname: string): Promise<OneAtATime> {
  const agents = mode === 'keep-alive' ? [new http.Agent({ keepAlive: true, maxSockets: 1 }), new http.Agent({ keepAlive: true, maxSockets: 1 })] : [false as const, false as const];
  const lightMs: number[] = [];
  const volumeMs: number[] = [];
  for (let i = 0; i < WARMUP_REQUESTS + REQUESTS; i++) {
    const l = await timedGet(stack.base, pathname, light, agents[0]);
    const v = await timedGet(stack.base, pathname, volume, agents[1]);
    if (i >= WARMUP_REQUESTS) {
      lightMs.push(l);
      volumeMs.push(v);
    }
  }
  for (const agent of agents) if (agent) agent.destroy();
  const [ls, vs] = [sortedFloat64(lightMs), sortedFloat64(volumeMs)];
  const lightP50Ms = percentile(ls, 50);
  const volumeP50Ms = percentile(vs, 50);
  return { mode, requests: REQUESTS, lightP50Ms, volumeP50Ms, addedP50Ms: lightP50Ms - volumeP50Ms, lightP99Ms: percentile(ls, 99) };
}

/** One fresh light key per mode; `volume`: the keys at volume, the first of which the client uses. */
export async function measureOneAtATime(
  ctx: BenchContext,
  stack: Stack,
  o: { light: readonly string[]; volume: readonly string[]; volumeFile: string; path: string },
): Promise<OneAtATime[]> {
  console.log('==> many clients: one request at a time, against a key at volume');
  const lua = path.join(import.meta.dirname, 'wrk');
  const args = ['-t1', '-c2', `-d${BACKGROUND_SECONDS}s`, '-s', path.join(lua, 'keys.lua'), `${stack.base}${o.path}`, '--', o.volumeFile, '1'];
  const background = startChild('wrk', args, { env: { ...process.env, BENCH_LUA_DIR: lua }, log: ctx.log });
  try {
    const out: OneAtATime[] = [];
    for (const [i, mode] of (['new connection', 'keep-alive'] as const).entries()) {
      out.push(await measureMode(stack, mode, o.light[i], o.volume[0], o.path));
      const m = out[out.length - 1];
      console.log(`    ${mode}: light p50 ${m.lightP50Ms.toFixed(3)} ms, at volume ${m.volumeP50Ms.toFixed(3)} ms`);
    }
    return out;
  } finally {
    await stopChild(background);
  }
}
