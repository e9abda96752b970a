// The production pm2 ecosystem with the API workers and metering under --cpu-prof (profiles written to
// BENCH_PROFILE_DIR when each process exits), for `npm run bench -- --profile <endpoint>`.
const base = require('../../ecosystem.config.cjs');

const dir = process.env.BENCH_PROFILE_DIR;
if (!dir) throw new Error('BENCH_PROFILE_DIR is not set');

module.exports = {
  apps: base.apps.map((app) =>
    app.name === 'api' || app.name === 'metering'
      ? { ...app, node_args: [...(app.node_args ?? []), '--cpu-prof', `--cpu-prof-dir=${dir}`] }
      : app,
  ),
};
