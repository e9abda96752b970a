// Checks that the load class asked for (how wrk is scheduled; LOAD_CLASSES in args.ts) can take effect on
// this machine before any run uses it, so that a report never names a class its wrk did not run under.
import { spawnSync } from 'node:child_process';

import { LOAD_CLASSES } from './args.ts';
import type { BenchOptions, LoadClassSpec } from './args.ts';

/**
 * Leaves opts.loadClass as it is when it takes effect. The default that cannot (raising a priority needs root
 * or CAP_SYS_NICE) falls back to normal and the returned notice says so; a class given with --load-class
 * that cannot is an error. `runAs` goes before the check's command line (the tests run it as an unprivileged
 * user with setpriv).
 */
export function settleLoadClass(opts: BenchOptions, runAs: readonly string[] = []): string | undefined {
  const spec: LoadClassSpec = LOAD_CLASSES[opts.loadClass];
  if (!spec.check) return undefined;
  const [command, ...args] = [...runAs, ...spec.prefix, ...spec.check];
  const r = spawnSync(command, args, { encoding: 'utf8' });
  if (r.status === 0) return undefined;
  const why = `${`${r.error?.message ?? ''}${r.stderr ?? ''}`.trim() || `exit ${r.status}`}; raising a priority needs root or CAP_SYS_NICE`;
  if (opts.loadClassGiven) throw new Error(`--load-class ${opts.loadClass} cannot take effect here (${why}); try --load-class normal`);
  const notice = `the default --load-class ${opts.loadClass} could not take effect (${why}): wrk ran as normal, ${LOAD_CLASSES.normal.says}`;
  opts.loadClass = 'normal';
  return notice;
}
