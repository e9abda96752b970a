// Headless Chromium for the browser tests: Debian's build (CI installs it with apt), launched by playwright-core.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Debian's chromium; CHROMIUM_PATH overrides. */
export function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  try {
    candidates.push(execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim());
  } catch {
    // not on PATH: the fixed candidates remain
  }
  const found = candidates.find((c): c is string => Boolean(c) && existsSync(c as string));
  if (!found) {
    throw new Error('Chromium not found: the browser tests need it. Install it with `apt-get install -y chromium` (CI does) or set CHROMIUM_PATH.');
  }
  return found;
}
