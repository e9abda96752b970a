// The log rotation process (a pm2 app of the stack): every second, rotates the stack's pm2 log files that
// grew past LOG_MAX_MB, keeping LOG_KEEP copies of each. Runs without the network, unlike pm2-logrotate, which
// pm2 installs from the npm registry, and the same under pm2's daemon and pm2-runtime (npm start).
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
const { logDir, maxBytes, keep } = config;

const timer = setInterval(() => {
  try {
    const rotated = rotateOversized(logDir, maxBytes, keep);
    if (rotated.length > 0) log.info({ msg: 'rotated', files: rotated });
  } catch (error) {
    log.error({ msg: 'rotation failed', error: String(error) });
  }
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
