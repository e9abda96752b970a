// The bus's users (services/shared/nats-auth): over a real nats-server started with the generated config, the
// real metering process and the ops CLI. A connection without credentials is refused; the workers' user cannot
// run ops subjects, serve metering's subjects or read another role's replies; credentials are 0600 and never
// replaced once made.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { connect, type NatsConnection, type NatsError } from 'nats';

import { call } from '../../services/shared/metering-protocol/client.ts';
import { OPS } from '../../services/shared/metering-protocol/ops-protocol.ts';
import { RPC } from '../../services/shared/metering-protocol/protocol.ts';
import { SUBJECTS } from '../../services/shared/metering-protocol/subjects.ts';
import { credentialsFile, ensureNatsCredentials, natsAuthFor, type NatsRole } from '../../services/shared/nats-auth/credentials.ts';
import { startBackend, type Backend } from '../support/stack.ts';
import { tempDir } from '../support/temp-dir.ts';

/** A subscription's refusal by the server, or undefined if none came within this long. */
const REFUSAL_WAIT_MS = 2000;

describe('nats auth', () => {
  let backend: Backend;
  const open: NatsConnection[] = [];
  const as = async (role: NatsRole) => {
    const nc = await connect({ servers: backend.natsUrl, ...natsAuthFor(backend.dataDir, role) });
    open.push(nc);
    return nc;
  };

  before(async () => {
    backend = await startBackend();
  });
  after(async () => {
    for (const nc of open) await nc.close().catch(() => undefined);
    await backend.stop();
  });

  /** Resolves with the server's refusal of a subscription to `subject` (undefined when it was allowed). */
  function subscriptionRefusal(nc: NatsConnection, subject: string): Promise<NatsError | undefined> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(undefined), REFUSAL_WAIT_MS);
      nc.subscribe(subject, {
        callback: (err) => {
          if (!err) return;
          clearTimeout(timer);
          resolve(err);
        },
      });
    });
  }

  test('nats auth - a connection without credentials is refused', async () => {
    await assert.rejects(connect({ servers: backend.natsUrl, reconnect: false }), (err: NatsError) => {
      assert.equal(err.code, 'AUTHORIZATION_VIOLATION', String(err));
      return true;
    });
  });

  test('nats auth - a connection with a wrong password is refused', async () => {
    await assert.rejects(connect({ servers: backend.natsUrl, reconnect: false, user: 'api', pass: 'not-the-password' }), (err: NatsError) => {
      assert.equal(err.code, 'AUTHORIZATION_VIOLATION', String(err));
      return true;
    });
  });

  test('nats auth - the workers user asks metering what it uses, and is refused the ops subjects', async () => {
    const api = await as('api');
    const pong = await call(api, RPC.ping, {});
    assert.equal(pong.storage?.canCommit, true, JSON.stringify(pong));
    await assert.rejects(call(api, OPS.developersList, {}), (err: Error) => {
      assert.match(String(err), /permissions violation/i);
      return true;
    });
    const ops = await as('ops');
    const listed = await call(ops, OPS.developersList, {});
    assert.ok(Array.isArray(listed.developers), JSON.stringify(listed));
  });

  test('nats auth - the workers user cannot read another role\'s replies nor serve metering\'s subjects', async () => {
    const api = await as('api');
    for (const subject of ['_INBOX_OPS.>', '_INBOX_METERING.>', '_INBOX.>', '>', SUBJECTS.register, SUBJECTS.opsBackup]) {
      const refusal = await subscriptionRefusal(api, subject);
      assert.ok(refusal?.isPermissionError(), `subscribing to ${subject} as api: ${String(refusal)}`);
    }
    // Its own replies and what metering sends the workers are allowed.
    assert.equal(await subscriptionRefusal(api, '_INBOX_API.own'), undefined);
  });

  test('nats auth - the ops user cannot read the workers\' replies (registrations carry plaintext keys)', async () => {
    const ops = await as('ops');
    const refusal = await subscriptionRefusal(ops, '_INBOX_API.>');
    assert.ok(refusal?.isPermissionError(), String(refusal));
    await assert.rejects(ops.request(SUBJECTS.register, new Uint8Array(), { timeout: REFUSAL_WAIT_MS }), /permissions violation/i);
  });

  test('nats auth - the ops CLI connects with its own credentials', async () => {
    const result = await backend.ops('developers', 'list');
    assert.equal(result.code, 0, `${result.stdout}${result.stderr}`);
  });

  test('nats auth - credentials are 0600 in a 0700 directory and never replaced once made', () => {
    const file = credentialsFile(backend.dataDir);
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.equal(fs.statSync(path.dirname(file)).mode & 0o777, 0o700);
    const before = fs.readFileSync(file, 'utf8');
    ensureNatsCredentials(backend.dataDir);
    assert.equal(fs.readFileSync(file, 'utf8'), before);
  });

  test('nats auth - processes starting together all read the one credentials file that was made', () => {
    const dir = tempDir('nats-auth-race');
    const made = Array.from({ length: 8 }, () => ensureNatsCredentials(dir));
    for (const m of made) assert.deepEqual(m, made[0]);
    assert.deepEqual(fs.readdirSync(path.join(dir, 'nats')), ['credentials.json'], 'no temporary file is left');
  });
});
