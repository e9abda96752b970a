// The TypeScript client builds for its users: `npm run build:client` compiles it with the DOM's library and no
// Node types (what a browser offers), and the JavaScript it emits runs in plain Node, without tsx.
import { execFile } from 'node:child_process';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';

import { tempDir } from '../support/temp-dir.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

describe('typescript client build', () => {
  test('typescript client build - compiles without Node types and its JavaScript loads in plain Node', async () => {
    const out = tempDir('client-build-');
    const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    await run(process.execPath, [tsc, '-p', 'clients/typescript/tsconfig.build.json', '--outDir', out], { cwd: ROOT }).catch((error: { stdout: string }) => {
      assert.fail(`tsc failed:\n${error.stdout}`);
    });
    for (const file of ['index.js', 'index.d.ts', 'client.js', 'generated/openapi.d.ts']) assert.ok(fs.existsSync(path.join(out, file)), file);
    const imports = fs.readFileSync(path.join(out, 'client.js'), 'utf8').match(/from "[^"]+"/g) ?? [];
    assert.ok(imports.length > 0 && imports.every((i) => i.endsWith('.js"')), `relative imports end in .js: ${imports.join(', ')}`);

    const script = `
      const m = await import(${JSON.stringify(path.join(out, 'index.js'))});
      const client = new m.DictionaryClient({ baseUrl: 'http://127.0.0.1:1/' });
      const error = new m.DictionaryApiError({ code: 'not_found', message: 'x', status: 404 });
      console.log(JSON.stringify([typeof client.searchPages, error instanceof Error, error.name, m.waitAfter429('rate_limited', null, 0)]));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: out });
    assert.deepEqual(JSON.parse(stdout), ['function', true, 'DictionaryApiError', 900_000]);
  });
});
