// Loads a page in Chromium under a throttled phone profile and reports when its content of interest shows,
// its layout shift and its bytes on the wire. The browser tests use measurePage; run as a script it prints
// the median of several fresh loads:
//
//   node --import tsx scripts/web/page-perf.ts --serve .tmp/test-snapshot.sqlite --path /docs
//   node --import tsx scripts/web/page-perf.ts --url http://127.0.0.1:8080/docs
//
// --app-root <dir> serves the website of another checkout of the repository (e.g. an older commit, for a
// before/after comparison) with the same snapshot and the same profile.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';

import { CHROMIUM_ARGS, chromiumPath } from './chromium.ts';

/** The phone profile: a slow 3G-class link and a mid-range phone's CPU (Lighthouse's mobile defaults, near). */
export const PHONE_PROFILE = {
  viewport: { width: 375, height: 812 },
  deviceScaleFactor: 2,
  /** Round-trip time added to every request, ms. */
  latencyMs: 150,
  downloadBitsPerSecond: 1_600_000,
  uploadBitsPerSecond: 750_000,
  /** Chromium runs JavaScript and layout this many times slower (Emulation.setCPUThrottlingRate). */
  cpuSlowdown: 4,
} as const;

/**
 * What /docs is judged on: the operations of the API reference, whichever renderer draws them (ours marks
 * each operation's path; Swagger UI draws .opblock-summary-path).
 */
export const OPERATIONS_SELECTOR = '[data-operation] .op-path, .opblock-summary-path';

export interface PageMeasure {
  /** ms from navigation start to the first frame in which the selected content is laid out. */
  contentMs: number;
  firstContentfulPaintMs: number;
  /** Cumulative layout shift (the largest session window, as Chromium's web-vitals count it). */
  cls: number;
  /** Bytes received (headers and bodies, as sent: compressed where compressed). */
  bytes: number;
  requests: number;
}

/**
 * Timing probes installed before any page script runs; they report through window.__perf. Plain JavaScript
 * source, not a function: the TypeScript loader decorates functions with helpers the page does not have.
 * A frame is only produced once render-blocking styles have arrived, so the first animation frame in which
 * the content has a size is when it can first be seen.
 */
function probes(selector: string): string {
  return `(() => {
  const perf = { contentMs: -1, shifts: [] };
  window.__perf = perf;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (!e.hadRecentInput) perf.shifts.push({ t: e.startTime, v: e.value });
  }).observe({ type: 'layout-shift', buffered: true });
  const check = () => {
    const element = document.querySelector(${JSON.stringify(selector)});
    if (element && element.getBoundingClientRect().height > 0) { perf.contentMs = performance.now(); return; }
    requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})();`;
}

export async function measurePage(browser: Browser, url: string, selector: string, settleMs = 2_000): Promise<PageMeasure> {
  const context = await browser.newContext({
    viewport: PHONE_PROFILE.viewport,
    deviceScaleFactor: PHONE_PROFILE.deviceScaleFactor,
    isMobile: true,
    hasTouch: true,
  });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: PHONE_PROFILE.latencyMs,
      downloadThroughput: PHONE_PROFILE.downloadBitsPerSecond / 8,
      uploadThroughput: PHONE_PROFILE.uploadBitsPerSecond / 8,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: PHONE_PROFILE.cpuSlowdown });
    let bytes = 0;
    let requests = 0;
    cdp.on('Network.loadingFinished', (event: { encodedDataLength: number }) => {
      bytes += event.encodedDataLength;
      requests++;
    });
    await page.addInitScript({ content: probes(selector) });
    await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
    await page.waitForFunction(() => (window as unknown as { __perf: { contentMs: number } }).__perf.contentMs >= 0, undefined, { timeout: 60_000 });
    // Late shifts count too (a renderer that replaces the page after its data arrives, a font swap).
    await page.waitForTimeout(settleMs);
    const probed = await page.evaluate(() => {
      const perf = (window as unknown as { __perf: { contentMs: number; shifts: Array<{ t: number; v: number }> } }).__perf;
      const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1;
      return { contentMs: perf.contentMs, shifts: perf.shifts, fcp };
    });
    return {
      contentMs: Math.round(probed.contentMs),
      firstContentfulPaintMs: Math.round(probed.fcp),
      cls: Math.round(largestSessionWindow(probed.shifts) * 1000) / 1000,
      bytes,
      requests,
    };
  } finally {
    await context.close();
  }
}

/** CLS: shifts less than 1 s apart in windows of at most 5 s; the largest window's sum. */
export function largestSessionWindow(shifts: ReadonlyArray<{ t: number; v: number }>): number {
  let best = 0;
  let sum = 0;
  let start = -Infinity;
  let last = -Infinity;
  for (const s of shifts) {
    if (s.t - last > 1_000 || s.t - start > 5_000) {
      sum = 0;
      start = s.t;
    }
    sum += s.v;
    last = s.t;
    best = Math.max(best, sum);
  }
  return best;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

interface ServedApp {
  url: string;
  stop(): Promise<void>;
}

/** The website of `root` (this checkout or another) on a free port, over `snapshotPath`; pages need no meter. */
async function serve(root: string, snapshotPath: string): Promise<ServedApp> {
  const load = (file: string) => import(pathToFileURL(path.join(root, file)).href);
  const { createApp } = (await load('services/api/app.ts')) as { createApp: (deps: unknown) => AppLike };
  const { openSnapshot } = (await load('snapshot/reader/reader.ts')) as { openSnapshot: (p: string) => { close(): void; meta: unknown } };
  const snapshot = openSnapshot(snapshotPath);
  const refuse = async (): Promise<never> => {
    throw new Error('page-perf serves pages only');
  };
  const deps = {
    config: { port: 0, host: '127.0.0.1', natsUrl: 'nats://127.0.0.1:1', dataDir: '.tmp', snapshotPath, trustProxy: [], workerName: 'page-perf' },
    snapshot,
    meter: { admit: refuse, register: refuse, reachable: async () => false, close: async () => {} },
    log: { info: () => {}, error: (f: unknown) => console.error(f), flush: () => {} },
    now: Date.now,
  };
  const app = createApp(deps);
  await app.listen(0, '127.0.0.1');
  return {
    url: `http://127.0.0.1:${app.port}`,
    stop: async () => {
      app.close();
      snapshot.close();
    },
  };
}

interface AppLike {
  listen(port: number, host: string): Promise<unknown>;
  close(): void;
  port: number;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      url: { type: 'string' },
      serve: { type: 'string' },
      'app-root': { type: 'string', default: '.' },
      path: { type: 'string', default: '/docs' },
      selector: { type: 'string', default: OPERATIONS_SELECTOR },
      runs: { type: 'string', default: '5' },
    },
  });
  if (!values.url && !values.serve) throw new Error('give --url <page> or --serve <snapshot> [--path /docs]');
  const served = values.serve ? await serve(path.resolve(values['app-root']), path.resolve(values.serve)) : undefined;
  const url = values.url ?? `${served?.url}${values.path}`;
  const browser = await chromium.launch({ executablePath: chromiumPath(process.env.CHROMIUM_PATH), args: CHROMIUM_ARGS });
  try {
    const runs: PageMeasure[] = [];
    for (let i = 0; i < Number(values.runs); i++) runs.push(await measurePage(browser, url, values.selector));
    const pick = (k: keyof PageMeasure) => median(runs.map((r) => r[k]));
    console.log(`${url} on the phone profile (${PHONE_PROFILE.downloadBitsPerSecond / 1e6} Mbps, ${PHONE_PROFILE.latencyMs} ms RTT, ${PHONE_PROFILE.cpuSlowdown}x CPU), median of ${runs.length} fresh loads:`);
    console.log(`  content shown   ${pick('contentMs')} ms (selector ${values.selector})`);
    console.log(`  first paint     ${pick('firstContentfulPaintMs')} ms`);
    console.log(`  layout shift    ${pick('cls')}`);
    console.log(`  bytes received  ${pick('bytes')} in ${pick('requests')} requests`);
    console.log(`  runs: ${runs.map((r) => `${r.contentMs} ms/${r.cls}/${r.bytes} B`).join(', ')}`);
  } finally {
    await browser.close();
    await served?.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
