// The operator CLI against hostile registrations: names, organisations, emails and key names carrying terminal
// escapes, C1 controls, bidi overrides and newlines are shown as visible escapes in every human-readable output,
// and kept intact in --json. The CLI is spawned as `npm run ops` runs it, against the real metering service.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';

import { startNats, type NatsHandle } from '../support/nats.ts';
import { startMeteringInProcess, workerMeter, type InProcessMetering } from './support.ts';

import type { Meter } from '../../services/api/metering-client/meter.ts';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');

/** A forged table row, as an attacker would line it up under `keys list`. */
const FORGED_ROW = 'svc_live_00000000  default  usable';
const HOSTILE = {
  // Set the window title, clear the screen, recolour; CSI as one C1 byte; DEL.
  name: 'Mallory\u001b]0;pwned\u0007\u001b[2J\u001b[31mred\u009b1m\u007f',
  // Right-to-left override: the rest of the line reads backwards.
  organization: 'Evil \u202egro.elpmaxe\u202c Ltd \u2066isolate\u2069',
  keyName: `k\r\n${FORGED_ROW}\u2028x`,
  email: 'mal\u001b[8mlory@example.org',
};
/** What a terminal must never receive raw: C0 other than the lines' own newlines, DEL, C1, bidi controls. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

describe('ops CLI with hostile registrations', () => {
  let nats: NatsHandle;
  let svc: InProcessMetering;
  let meter: Meter;
  let prefix: string;

  async function ops(...args: string[]): Promise<{ stdout: string; stderr: string }> {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'services/metering/ops/main.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, NATS_URL: nats.url },
    });
    return { stdout, stderr };
  }

  before(async () => {
    nats = await startNats();
    svc = await startMeteringInProcess(nats.url);
    meter = await workerMeter(nats.url, 'ops-hostile');
    // Registration now refuses control characters in an email; a row stored before that rule still holds them,
    // and the CLI must still show it safely: written here as such a row.
    const clean = 'mallory@example.org';
    prefix = (await meter.register({ ...HOSTILE, email: clean }, '10.2.2.2')).keyPrefix;
    await svc.db.prepare('UPDATE developers SET email = ? WHERE email = ?').run(HOSTILE.email, clean);
  });
  after(async () => {
    await meter.close();
    await svc.stop();
    await nats.stop();
  });

  it('ops CLI with hostile registrations - developers list, developers show and keys list print no control character', async () => {
    const outputs = await Promise.all([
      ops('developers', 'list'),
      ops('developers', 'show', HOSTILE.email),
      ops('keys', 'list', HOSTILE.email),
      ops('usage', HOSTILE.email),
      ops('developers', 'suspend', HOSTILE.email),
    ]);
    for (const { stdout, stderr } of outputs) {
      assert.doesNotMatch(stdout, RAW_CONTROL, JSON.stringify(stdout));
      assert.doesNotMatch(stderr, RAW_CONTROL, JSON.stringify(stderr));
      // The forged row never starts a line of its own.
      assert.ok(!stdout.split('\n').some((line) => line.startsWith('svc_live_00000000')), stdout);
    }
    const [, show, keys] = outputs;
    assert.ok(show.stdout.includes('Mallory\\x1b]0;pwned\\x07\\x1b[2J\\x1b[31mred\\x9b1m\\x7f'), show.stdout);
    assert.ok(show.stdout.includes('Evil \\u202egro.elpmaxe\\u202c Ltd \\u2066isolate\\u2069'), show.stdout);
    assert.ok(keys.stdout.includes(`k\\x0d\\x0a${FORGED_ROW}\\u2028x`), keys.stdout);
    // One header, one rule, one key: the key name did not add a row.
    assert.equal(keys.stdout.trimEnd().split('\n').length, 3, keys.stdout);
    assert.ok(keys.stdout.includes(prefix), keys.stdout);
  });

  it('ops CLI with hostile registrations - --json keeps the text as registered', async () => {
    const { stdout } = await ops('developers', 'show', HOSTILE.email, '--json');
    const reply = JSON.parse(stdout) as { developer: { name: string; organization: string; email: string }; keys: { name: string }[] };
    assert.equal(reply.developer.name, HOSTILE.name);
    assert.equal(reply.developer.organization, HOSTILE.organization);
    assert.equal(reply.developer.email, HOSTILE.email);
    assert.equal(reply.keys[0].name, HOSTILE.keyName.trim());
  });

  it('ops CLI with hostile registrations - an error naming the operator\'s input shows it escaped', async () => {
    const failed = await ops('developers', 'show', 'no\u001b[31mbody@example.org').then(
      () => assert.fail('an unknown email must fail'),
      (error: { code: number; stderr: string }) => error,
    );
    assert.equal(failed.code, 1);
    assert.doesNotMatch(failed.stderr, RAW_CONTROL, JSON.stringify(failed.stderr));
    assert.match(failed.stderr, /no developer with email no\\x1b\[31mbody@example\.org/);
  });
});
