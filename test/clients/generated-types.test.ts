// The clients' generated types match the OpenAPI description the API serves: regenerating from it
// (`npm run generate:clients`) would change no type. Comments are left out of the comparison, since the
// `language` parameters' descriptions list the active languages of whichever snapshot the stack serves.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { PYTHON_TYPES_FILE, pythonTypes } from '../../clients/generate/python-types.ts';
import { TYPESCRIPT_TYPES_FILE, typescriptTypes } from '../../clients/generate/typescript-types.ts';
import { ROOT, startStack } from '../support/stack.ts';

import type { Stack } from '../support/stack.ts';

const REGENERATE = 'the served OpenAPI description changed: run `npm run generate:clients` and commit the result';

/** The lines that declare something: no comments, docstrings or blank lines. */
function declarations(text: string, comment: RegExp): string[] {
  return text
    .replace(comment, '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('//') && !line.startsWith('#') && !line.startsWith('"""'));
}

let stack: Stack;
let document: object;
before(async () => {
  stack = await startStack({ workers: 1 });
  document = (await (await fetch(`${stack.baseUrl}/api/v1/openapi.json`)).json()) as object;
});
after(async () => {
  await stack?.stop();
});

describe('generated client types', () => {
  test('generated client types - the TypeScript types are those of the served description', async () => {
    const committed = fs.readFileSync(path.join(ROOT, TYPESCRIPT_TYPES_FILE), 'utf8');
    const jsdoc = /\/\*\*[\s\S]*?\*\//g;
    assert.deepEqual(declarations(committed, jsdoc), declarations(await typescriptTypes(document), jsdoc), REGENERATE);
  });

  test('generated client types - the Python types are those of the served description', () => {
    const committed = fs.readFileSync(path.join(ROOT, PYTHON_TYPES_FILE), 'utf8');
    assert.deepEqual(declarations(committed, /^$/g), declarations(pythonTypes(document), /^$/g), REGENERATE);
  });
});
