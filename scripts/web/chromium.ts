// Where the browser tests and the page measurements find Chromium (Debian's package), and how they start it.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Headless, no sandbox (root in CI), nothing that reaches the network on its own. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Debian's chromium (CI installs it with apt); CHROMIUM_PATH overrides. */
export function chromiumPath(override: string | undefined): string {
  const candidates = [override, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  try {
    candidates.push(execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim());
  } catch {
    // not on PATH: the fixed candidates remain
  }
  const found = candidates.find((c): c is string => Boolean(c) && existsSync(c as string));
  if (!found) {
    throw new Error('Chromium not found: install it with `apt-get install -y chromium` (CI does) or set CHROMIUM_PATH.');
  }
  return found;
}
