// Variants of the production pm2 ecosystem, to measure what a change would buy before anyone makes it:
// `npm run bench -- --experiment <name>` (BENCH_EXPERIMENT). Production itself is ecosystem.config.cjs.
//   no-request-logs   pm2 drops the API workers' stdout at once (disable_logs) instead of writing log files
//                     and publishing every chunk on its bus: what per-request logging through pm2 costs.
//   default-heap      the API workers without the ecosystem's V8 heap flags: what they save in resident size.
//   parallel-gc       the API workers without --single-threaded-gc: V8's GC helper threads back, competing with
//                     the workers, wrk and pm2 for the two cores.
//   trace-gc          the API workers with --trace-gc: each collection is a line in their pm2 logs (keep them with
//                     --keep-tmp and count Mark-Compact lines; they are not request lines).
//   default-malloc    the API workers without the ecosystem's glibc malloc settings (a fixed trim threshold and
//                     two arenas): what the freed memory glibc keeps costs in resident size.
const base = require('../../ecosystem.config.cjs');

const experiment = process.env.BENCH_EXPERIMENT;
const variants = {
  'no-request-logs': (app) => (app.name === 'api' ? { ...app, disable_logs: true } : app),
  'default-heap': (app) => (app.name === 'api' ? { ...app, node_args: [] } : app),
  'trace-gc': (app) => (app.name === 'api' ? { ...app, node_args: [...app.node_args, '--trace-gc'] } : app),
  'default-malloc': (app) => {
    if (app.name !== 'api') return app;
    const { MALLOC_TRIM_THRESHOLD_, MALLOC_ARENA_MAX, ...env } = app.env;
    return { ...app, env };
  },
  'parallel-gc': (app) =>
    app.name === 'api' ? { ...app, node_args: app.node_args.filter((arg) => arg !== '--single-threaded-gc') } : app,
};
const variant = variants[experiment];
if (!variant) throw new Error(`unknown BENCH_EXPERIMENT ${experiment}; known: ${Object.keys(variants).join(', ')}`);

module.exports = { apps: base.apps.map(variant) };
