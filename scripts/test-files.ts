// Lists the test files for scripts/test.sh: every *.test.ts outside test/long/, or with --unit only those that
// start no server. A file starts servers when its relative imports reach, at any depth, one of SERVER_MODULES
// (nats-server, the API stack, pm2, or a free port to listen on) or a browser; so a new helper that starts one is
// caught through its own imports, and a new test needs no list kept by hand.
//   node --import tsx scripts/test-files.ts [--unit | --long]
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const SERVER_MODULES = ['test/support/nats.ts', 'test/support/stack.ts', 'test/support/pm2-stack.ts', 'test/support/free-port.ts'];
const SERVER_PACKAGES = ['playwright-core'];
const IMPORT = /^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm;

function testFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return testFiles(rel);
    return e.name.endsWith('.test.ts') ? [rel] : [];
  });
}

const startsServers = new Map<string, boolean>();

/** Whether `file` (relative to the root) or anything it imports relatively starts a server. */
function reachesServer(file: string, seen = new Set<string>()): boolean {
  const known = startsServers.get(file);
  if (known !== undefined) return known;
  if (seen.has(file)) return false;
  seen.add(file);
  let found = SERVER_MODULES.includes(file);
  const source = found ? '' : fs.readFileSync(path.join(ROOT, file), 'utf8');
  for (const m of source.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2];
    if (SERVER_PACKAGES.includes(spec)) found = true;
    else if (spec.startsWith('.')) found ||= reachesServer(path.relative(ROOT, path.resolve(ROOT, path.dirname(file), spec)), seen);
    if (found) break;
  }
  startsServers.set(file, found);
  return found;
}

const mode = process.argv[2];
const files = mode === '--long' ? testFiles('test/long') : testFiles('test').filter((f) => !f.startsWith('test/long/'));
const chosen = mode === '--unit' ? files.filter((f) => !reachesServer(f)) : files;
process.stdout.write(`${chosen.sort().join('\n')}\n`);
