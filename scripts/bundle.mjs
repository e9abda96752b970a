// Bundles each process's TypeScript into dist/ with esbuild; production (pm2) runs these, tsx is for dev and tests.
import { build } from 'esbuild';

const entryPoints = {
  api: 'services/api/main.ts',
  metering: 'services/metering/main.ts',
  ops: 'services/metering/ops/main.ts',
};

await build({
  entryPoints,
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  // Native addons (better-sqlite3, uWebSockets.js) and their loaders must stay in node_modules.
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
console.log(`bundled ${Object.keys(entryPoints).join(', ')} into dist/`);
