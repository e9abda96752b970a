// The Python client (clients/python): its unittest suite against a real stack, and mypy --strict over it.
import { spawn } from 'node:child_process';
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { ROOT, startStack } from '../support/stack.ts';

import type { Stack } from '../support/stack.ts';

const PYTHON_DIR = path.join(ROOT, 'clients', 'python');

function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const chunks: string[] = [];
    // No bytecode files in the tree; the stack's address for the tests that need one.
    const child = spawn(command, args, { cwd: PYTHON_DIR, env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1', ...env } });
    child.stdout.on('data', (c: Buffer) => chunks.push(c.toString()));
    child.stderr.on('data', (c: Buffer) => chunks.push(c.toString()));
    child.on('error', (error) => resolve({ code: null, output: String(error) }));
    child.on('exit', (code) => resolve({ code, output: chunks.join('') }));
  });
}

/** A way to run mypy: as a module of the Python on PATH, of Debian's (python3-mypy installs for /usr/bin/python3), or its command. */
async function mypyCommand(): Promise<[string, ...string[]] | undefined> {
  const candidates: [string, ...string[]][] = [['python3', '-m', 'mypy'], ['/usr/bin/python3', '-m', 'mypy'], ['mypy']];
  for (const [command, ...args] of candidates) {
    if ((await run(command, [...args, '--version'])).code === 0) return [command, ...args];
  }
  return undefined;
}

let stack: Stack;
before(async () => {
  stack = await startStack({ workers: 1 });
});
after(async () => {
  await stack?.stop();
});

describe('python client', () => {
  test('python client - its unittest suite passes against a real stack', async () => {
    const { code, output } = await run('python3', ['-m', 'unittest', 'discover', '-s', 'tests', '-t', '.', '-v'], { DICTIONARY_BASE_URL: stack.baseUrl });
    assert.equal(code, 0, output);
    // Every test ran: none skipped for want of the stack's address.
    assert.doesNotMatch(output, /skipped/, output);
    assert.match(output, /^OK$/m, output);
  });

  test('python client - the package and its tests pass mypy --strict', async (t) => {
    const mypy = await mypyCommand();
    if (mypy === undefined) {
      t.skip('mypy is not installed (apt-get install mypy)');
      return;
    }
    // Python 3.9 is the oldest the client supports (README); no cache left in the tree.
    const [command, ...args] = mypy;
    const { code, output } = await run(command, [...args, '--strict', '--python-version', '3.9', '--cache-dir', '/dev/null', 'african_dictionary', 'tests']);
    assert.equal(code, 0, output);
  });
});
