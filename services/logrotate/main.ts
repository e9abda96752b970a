// The log rotation process (a pm2 app of the stack): every second, renames the stack's pm2 log files that grew
// past LOG_MAX_MB, keeping LOG_KEEP of each, and has pm2 reopen them (SIGUSR2 to its daemon). Runs without the
// network, unlike pm2-logrotate, which pm2 installs from the npm registry.
import fs from 'node:fs';

import { ConfigError } from '../shared/env.ts';
import { createLogger } from '../shared/log/logger.ts';
import { readLogRotateConfig } from './config.ts';
import { rotateOversized } from './rotate.ts';

/**
 * How often sizes are checked: a file can pass LOG_MAX_MB by what its process writes meanwhile (a worker
 * logging every request at 80k requests/s writes about 16 MB/s).
 */
const CHECK_INTERVAL_MS = 1_000;

const log = createLogger({ service: 'logrotate' });
let config;
try {
  config = readLogRotateConfig();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
}
const { logDir, pidFile, maxBytes, keep } = config;

/** pm2's daemon, when it is this process's parent: a stale pid file must not make us signal a stranger. */
function pm2Daemon(): number | undefined {
  try {
    const pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
    return pid === process.ppid && pid > 1 ? pid : undefined;
  } catch {
    return undefined;
  }
}

const timer = setInterval(() => {
  const rotated = rotateOversized(logDir, maxBytes, keep);
  if (rotated.length === 0) return;
  const daemon = pm2Daemon();
  // pm2 reopens every app's log files on SIGUSR2 (its reloadLogs).
  if (daemon !== undefined) process.kill(daemon, 'SIGUSR2');
  log.info({ msg: 'rotated', files: rotated, reopened: daemon !== undefined });
}, CHECK_INTERVAL_MS);

log.info({ msg: 'watching', logDir, maxBytes, keep });
// Orphaned (pm2 gone): nothing left to rotate for.
process.on('disconnect', () => process.exit(0));
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    clearInterval(timer);
    process.exit(0);
  });
}
