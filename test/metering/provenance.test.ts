// Keys someone else added under a developer's email: each key records the name, organisation, client address
// and time it was registered with; developers show and keys list give them; set-plan changes only the keys the
// operator names once there is more than one. Over the real stack (nats-server, metering, an API worker) and
// the ops CLI; the migration over a real metering.db of the previous schema.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import Database from 'better-sqlite3';

import { MIGRATIONS } from '../../services/metering/db/migrations.ts';
import { openMeteringDb } from '../../services/metering/db/open.ts';
import { startStack } from '../support/stack.ts';
import { tempDir } from './support.ts';

import type { Stack } from '../support/stack.ts';

interface Key {
  prefix: string;
  plan: string;
  createdAt: string;
  registrantName: string | null;
  registrantOrganization: string | null;
  registrantAddress: string | null;
}

let stack: Stack;
before(async () => {
  stack = await startStack({ workers: 1 });
});
after(async () => {
  await stack?.stop();
});

async function register(body: Record<string, string>, address: string): Promise<{ status: number; body: { apiKey: string; keyPrefix: string; developer: { name: string } } }> {
  const res = await fetch(`${stack.baseUrl}/api/v1/developers`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { apiKey: string; keyPrefix: string; developer: { name: string } } };
}

async function limitOf(apiKey: string): Promise<string | null> {
  const res = await fetch(`${stack.baseUrl}/api/v1/stats`, { headers: { 'x-api-key': apiKey } });
  await res.arrayBuffer();
  return res.headers.get('x-ratelimit-limit');
}

describe('key provenance', () => {
  it('key provenance - show and list give who registered each key; set-plan changes only the keys named', async () => {
    const email = `owner-${process.pid}@example.org`;
    const started = Date.now();
    // The stranger registers the owner's address first; then the owner does.
    const stranger = await register({ name: 'Stranger', email, organization: 'Squat Ltd', keyName: 'squat' }, '10.77.0.1');
    const owner = await register({ name: 'Real Owner', email, organization: 'Real Org' }, '10.77.0.2');
    assert.equal(stranger.status, 201, JSON.stringify(stranger.body));
    assert.equal(owner.status, 201, JSON.stringify(owner.body));
    assert.equal(owner.body.developer.name, 'Stranger', 'spec: the 201 gives the stored developer');

    const shown = await stack.ops('developers', 'show', email, '--json');
    assert.equal(shown.code, 0, shown.stderr);
    const keys = (JSON.parse(shown.stdout) as { keys: Key[] }).keys;
    const byPrefix = new Map(keys.map((k) => [k.prefix, k]));
    const squat = byPrefix.get(stranger.body.keyPrefix);
    const own = byPrefix.get(owner.body.keyPrefix);
    assert.deepEqual(
      [squat?.registrantName, squat?.registrantOrganization, squat?.registrantAddress],
      ['Stranger', 'Squat Ltd', '10.77.0.1'],
      shown.stdout,
    );
    assert.deepEqual([own?.registrantName, own?.registrantOrganization, own?.registrantAddress], ['Real Owner', 'Real Org', '10.77.0.2'], shown.stdout);
    for (const k of keys) assert.ok(Date.parse(k.createdAt) >= started - 1000, shown.stdout);

    const [text, list] = await Promise.all([stack.ops('developers', 'show', email), stack.ops('keys', 'list', email)]);
    for (const out of [text, list]) {
      assert.equal(out.code, 0, out.stderr);
      assert.match(out.stdout, /registrantName\s+registrantOrganization\s+registrantAddress/, out.stdout);
      assert.match(out.stdout, new RegExp(`${stranger.body.keyPrefix}\\s+squat\\s+free\\s+usable\\s+\\S+\\s+Stranger\\s+Squat Ltd\\s+10\\.77\\.0\\.1`), out.stdout);
      assert.match(out.stdout, new RegExp(`${owner.body.keyPrefix}\\s+default\\s+free\\s+usable\\s+\\S+\\s+Real Owner\\s+Real Org\\s+10\\.77\\.0\\.2`), out.stdout);
    }

    // Two usable keys: the operator must say which.
    const unnamed = await stack.ops('developers', 'set-plan', email, 'team');
    assert.equal(unnamed.code, 1, `${unnamed.stdout}${unnamed.stderr}`);
    assert.match(unnamed.stderr, new RegExp(`2 usable keys \\(${stranger.body.keyPrefix}, ${owner.body.keyPrefix}\\)`), unnamed.stderr);
    assert.match(unnamed.stderr, /--keys <prefix>/);

    const named = await stack.ops('developers', 'set-plan', email, 'team', '--keys', owner.body.keyPrefix);
    assert.equal(named.code, 0, named.stderr);
    assert.match(named.stdout, /keys changed \(1\):/, named.stdout);
    const [changedPart, unchangedPart] = named.stdout.split('Keys not changed');
    assert.ok(changedPart.includes(owner.body.keyPrefix) && !changedPart.includes(stranger.body.keyPrefix), named.stdout);
    assert.ok(unchangedPart?.includes(stranger.body.keyPrefix), named.stdout);

    // The workers learn of the change within a second.
    let limits: (string | null)[] = [];
    for (let i = 0; i < 30; i++) {
      limits = [await limitOf(owner.body.apiKey), await limitOf(stranger.body.apiKey)];
      if (limits[0] === '50000') break;
      await sleep(100);
    }
    assert.deepEqual(limits, ['50000', '1000']);

    const all = await stack.ops('developers', 'set-plan', email, 'institution', '--all-keys', '--json');
    assert.equal(all.code, 0, all.stderr);
    const reply = JSON.parse(all.stdout) as { changed: Key[]; unchanged: Key[] };
    assert.deepEqual(reply.changed.map((k) => k.plan), ['institution', 'institution']);
    assert.deepEqual(reply.unchanged, []);
  });

  it('key provenance - a developer\'s only key is refused unless named: a stranger may have registered it', async () => {
    const email = `single-${process.pid}@example.org`;
    const only = await register({ name: 'Single', email }, '10.77.0.3');
    const unnamed = await stack.ops('developers', 'set-plan', email, 'team');
    assert.equal(unnamed.code, 1, `${unnamed.stdout}${unnamed.stderr}`);
    assert.match(unnamed.stderr, new RegExp(`1 usable key \\(${only.body.keyPrefix}\\).*--keys <prefix>`), unnamed.stderr);
    const out = await stack.ops('developers', 'set-plan', email, 'team', '--keys', only.body.keyPrefix);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, new RegExp(`keys changed \\(1\\):\\n.*\\n.*\\n${only.body.keyPrefix}\\s+default\\s+team`), out.stdout);
  });

  it('key provenance - the migration fills in the name and organisation of each developer\'s first key', () => {
    const file = path.join(tempDir('provenance'), 'metering.db');
    const old = new Database(file);
    for (const [version, sql] of MIGRATIONS.slice(0, 2).entries()) {
      old.exec(sql);
      old.pragma(`user_version = ${version + 1}`);
    }
    old.prepare("INSERT INTO developers (id, name, email, organization, created_at) VALUES ('dev_1', 'First', 'f@example.org', 'Org', 1000)").run();
    const key = old.prepare("INSERT INTO api_keys (id, developer_id, key_hash, prefix, name, created_at) VALUES (?, 'dev_1', ?, 'svc_live_0000000' || ?, 'default', ?)");
    key.run('key_1', 'a'.repeat(64), '1', 1000);
    key.run('key_2', 'b'.repeat(64), '2', 2000);
    old.close();
    const db = openMeteringDb(file);
    const rows = db.prepare('SELECT id, registrant_name, registrant_organization, registrant_address FROM api_keys ORDER BY id').all();
    db.close();
    assert.deepEqual(rows, [
      { id: 'key_1', registrant_name: 'First', registrant_organization: 'Org', registrant_address: null },
      { id: 'key_2', registrant_name: null, registrant_organization: null, registrant_address: null },
    ]);
  });
});
