// One address, one developer: registration reads an email in one spelling (trimmed, Unicode NFC, lower-cased), so
// that its NFC and NFD spellings make one developer, and refuses control and invisible characters (a zero-width
// space or an escape would make a second account that looks like the first). Over the real stack.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { fakeClientIp } from '../support/stack.ts';
import { errorOf, show, startApi } from './support.ts';

import type { Api, Reply } from './support.ts';

let api: Api;
before(async () => {
  api = await startApi({ workers: 1 });
});
after(async () => {
  await api?.stack.stop();
});

const register = (email: string): Promise<Reply> =>
  api.call('/api/v1/developers', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': fakeClientIp() },
    body: JSON.stringify({ name: 'Josée', email }),
  });

describe('POST /api/v1/developers email', () => {
  test('POST /api/v1/developers email - NFC, NFD and upper-case spellings of one address make one developer', async () => {
    const local = `jos\u00e9-${process.pid}`;
    const spellings = [`${local}@example.org`, `${local.normalize('NFD')}@example.org`, `  ${local.toUpperCase()}@EXAMPLE.org `];
    assert.notEqual(spellings[0], spellings[1], 'the NFD spelling differs in its code points');
    const replies = [];
    for (const email of spellings) replies.push(await register(email));
    for (const reply of replies) assert.equal(reply.status, 201, show(reply));
    const developers = replies.map((r) => (r.body as { developer: { id: string; email: string } }).developer);
    assert.deepEqual(new Set(developers.map((d) => d.id)).size, 1, JSON.stringify(developers));
    for (const d of developers) assert.equal(d.email, `${local}@example.org`.normalize('NFC'));
  });

  const INVISIBLE = [
    ['a zero-width space', 'ama\u200b@example.org'],
    ['a zero-width joiner', 'a\u200dma@example.org'],
    ['a byte order mark', 'am\ufeffa@example.org'],
    ['a right-to-left override', 'ama\u202e@example.org'],
    ['an escape', '\u001b[31mama@example.org'],
    ['a NUL', 'ama\u0000@example.org'],
    ['a line separator', 'ama\u2028@example.org'],
  ];
  for (const [what, email] of INVISIBLE) {
    test(`POST /api/v1/developers email - an address with ${what} is invalid_parameter naming email`, async () => {
      const reply = await register(email);
      assert.equal(reply.status, 400, show(reply));
      const error = errorOf(reply);
      assert.equal(error.code, 'invalid_parameter', show(reply));
      assert.equal(error.message, "Invalid parameter 'email': must not contain control or invisible characters", show(reply));
    });
  }
});
