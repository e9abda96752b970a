// internal_error hides everything: a snapshot fault carrying SQL text and file paths, and metering being
// unreachable, both reach the client as the generic message only; the stack goes to the server log.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import Database from 'better-sqlite3';

import { INTERNAL_ERROR_MESSAGE } from '../../services/shared/errors.ts';
import { startInProcessStack } from '../support/stack.ts';

import type { Snapshot } from '../../snapshot/reader/snapshot.ts';
import type { InProcessStack } from '../support/stack.ts';

const SECRET_DETAIL = 'SQLITE_ERROR: no such column: folded in "SELECT * FROM entries_fts" at /work/main/var/snapshots/x.sqlite';

/** The real snapshot, except that searching for "boom" and entry "boom" fail like a broken database, and "corrupt" as SQLite does on a damaged file. */
function faulty(real: Snapshot): Snapshot {
  return new Proxy(real, {
    get(target, property, receiver) {
      if (property === 'search') {
        return (query: Parameters<Snapshot['search']>[0]) => {
          if (query.q === 'boom') throw new Error(SECRET_DETAIL);
          if (query.q === 'corrupt') throw new Database.SqliteError('database disk image is malformed', 'SQLITE_CORRUPT');
          return target.search(query);
        };
      }
      if (property === 'entryJson') {
        return (id: string) => {
          if (id === 'boom') throw new TypeError(SECRET_DETAIL);
          return target.entryJson(id);
        };
      }
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

let stack: InProcessStack;
let key = '';
before(async () => {
  stack = await startInProcessStack({ wrapSnapshot: faulty });
  key = (await stack.register()).apiKey;
});
after(async () => {
  await stack?.stop();
});

const get = async (path: string, apiKey = key) => {
  const res = await fetch(`${stack.baseUrl}${path}`, { headers: { 'x-api-key': apiKey } });
  return { res, text: await res.text() };
};

describe('internal_error', () => {
  test('internal_error - SQLite finding the snapshot corrupt tells the worker, which stops to check it on restart', async () => {
    const faults: unknown[] = [];
    stack.deps.onSnapshotFault = (error) => faults.push(error);
    const { res, text } = await get('/api/v1/words?q=corrupt');
    assert.equal(res.status, 500, text);
    assert.deepEqual(faults.map((e) => (e as { code?: string }).code), ['SQLITE_CORRUPT']);
    await get('/api/v1/words?q=boom');
    assert.equal(faults.length, 1, 'other faults are not the file');
    delete stack.deps.onSnapshotFault;
  });

  for (const path of ['/api/v1/words?q=boom', '/api/v1/words/boom']) {
    test(`internal_error - ${path}: 500 with the generic message only; the stack is logged`, async () => {
      const { res, text } = await get(path);
      assert.equal(res.status, 500, text);
      assert.deepEqual(JSON.parse(text), { error: { code: 'internal_error', message: INTERNAL_ERROR_MESSAGE } });
      assert.ok(!/sqlite|SELECT|\/work\/|\.ts/i.test(text), text);
      const logged = stack.records.find((r) => r.level === 'error' && String(r.stack).includes('SQLITE_ERROR'));
      assert.ok(logged, JSON.stringify(stack.records.slice(-5)));
      assert.ok(String(logged.stack).includes('internal-error.test.ts'), 'the log keeps the stack trace');
    });
  }

  test('internal_error - metering unreachable: a key the worker holds nothing for fails closed with internal_error', async () => {
    const fresh = (await stack.register()).apiKey;
    await stack.killMetering();
    try {
      const { res, text } = await get('/api/v1/stats', fresh);
      assert.equal(res.status, 500, text);
      assert.deepEqual(JSON.parse(text), { error: { code: 'internal_error', message: INTERNAL_ERROR_MESSAGE } });
      assert.equal(res.headers.get('x-ratelimit-limit'), null);
    } finally {
      await stack.startMetering();
    }
  });
});
