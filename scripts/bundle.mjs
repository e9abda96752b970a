// Bundles each process's TypeScript into dist/ with esbuild; production (pm2) runs these, tsx is for dev and tests.
// A file is replaced only when its bytes changed, by a rename: a process starting meanwhile (a worker
// reloaded by another stack on this clone) reads the old file or the new one, never a half-written one.
import fs from 'node:fs';
import path from 'node:path';

import { build } from 'esbuild';

const entryPoints = {
  api: 'services/api/main.ts',
  metering: 'services/metering/main.ts',
  ops: 'services/metering/ops/main.ts',
  logrotate: 'services/logrotate/main.ts',
  'nats-auth': 'services/shared/nats-auth/main.ts',
  snapshots: 'services/snapshots/main.ts',
};

const result = await build({
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
  write: false,
});
for (const file of result.outputFiles) {
  let same = false;
  try {
    same = Buffer.compare(fs.readFileSync(file.path), file.contents) === 0;
  } catch {
    // not there yet
  }
  if (same) continue;
  fs.mkdirSync(path.dirname(file.path), { recursive: true });
  const tmp = `${file.path}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, file.contents);
  fs.renameSync(tmp, file.path);
}
console.log(`bundled ${Object.keys(entryPoints).join(', ')} into dist/`);
