// A member's nats-server config for a cluster (npm run nats:cluster-config): the cluster's users are added to the
// credentials once and kept, every member names the others as routes, and a single machine's files stay as they
// were.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

import { natsUrlList } from '../../services/shared/env.ts';
import { ensureClusterCredentials, ensureNatsCredentials, readNatsCredentials } from '../../services/shared/nats-auth/credentials.ts';
import { renderServerConfig } from '../../services/shared/nats-auth/server-config.ts';
import { tempDir } from '../support/temp-dir.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

function clusterConfig(dataDir: string, ...args: string[]): { status: number; out: string } {
  try {
    const out = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/nats-cluster-config.ts', ...args], { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir }, stdio: 'pipe', encoding: 'utf8' });
    return { status: 0, out };
  } catch (error) {
    return { status: (error as { status: number }).status, out: String((error as { stderr?: string }).stderr) };
  }
}

describe('nats cluster config', () => {
  it('cluster config - adds the snapshots and route users once, keeping the roles a single machine made', () => {
    const dataDir = tempDir('cluster-creds-');
    const first = ensureNatsCredentials(dataDir);
    const single = renderServerConfig(first);
    assert.doesNotMatch(single, /snapshots/, 'a single machine has no snapshots user');
    const cluster = ensureClusterCredentials(dataDir);
    assert.deepEqual({ metering: cluster.users.metering, api: cluster.users.api, ops: cluster.users.ops }, first.users);
    assert.ok(cluster.users.snapshots && cluster.route);
    assert.deepEqual(ensureClusterCredentials(dataDir), cluster, 'made once, then kept');
    assert.deepEqual(readNatsCredentials(dataDir), cluster);
    assert.equal(fs.statSync(path.join(dataDir, 'nats/credentials.json')).mode & 0o777, 0o600);
  });

  it('cluster config - writes a member with JetStream, its routes to the others and every role\'s user', () => {
    const dataDir = tempDir('cluster-member-');
    const { status, out } = clusterConfig(dataDir, '--name', 'n2', '--address', '10.0.0.2', '--members', '10.0.0.1,10.0.0.2,10.0.0.3');
    assert.equal(status, 0, out);
    const file = out.trim();
    const text = fs.readFileSync(file, 'utf8');
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.match(text, /server_name: "n2"/);
    assert.match(text, /listen: "10\.0\.0\.2:4222"/);
    assert.match(text, /jetstream \{\n {2}store_dir: /);
    assert.match(text, /@10\.0\.0\.1:6222"/);
    assert.match(text, /@10\.0\.0\.3:6222"/);
    assert.doesNotMatch(text, /@10\.0\.0\.2:6222"/, 'no route to itself');
    for (const user of ['metering', 'api', 'ops', 'snapshots']) assert.match(text, new RegExp(`user: "${user}"`));
    assert.match(text, /"\$JS\.API\.>"/);
  });

  it('cluster config - refuses a bad member list with a message naming the option', () => {
    const cases: [string[], RegExp][] = [
      [['--name', 'n1', '--address', '10.0.0.1', '--members', '10.0.0.1,10.0.0.2'], /three or more members/],
      [['--name', 'n1', '--address', '10.0.0.9', '--members', '10.0.0.1,10.0.0.2,10.0.0.3'], /--members must include/],
      [['--name', 'n1', '--address', 'host-a', '--members', '10.0.0.1,10.0.0.2,10.0.0.3'], /--address/],
      [['--name', 'n 1', '--address', '10.0.0.1', '--members', '10.0.0.1,10.0.0.2,10.0.0.3'], /--name/],
    ];
    for (const [args, message] of cases) {
      const { status, out } = clusterConfig(tempDir('cluster-bad-'), ...args);
      assert.equal(status, 1, out);
      assert.match(out, message);
    }
  });

  it('cluster config - NATS_URL takes one server or a comma-separated list', () => {
    assert.deepEqual(natsUrlList.parse('nats://127.0.0.1:4222'), ['nats://127.0.0.1:4222']);
    assert.deepEqual(natsUrlList.parse('nats://10.0.0.1:4222, nats://10.0.0.2:4222'), ['nats://10.0.0.1:4222', 'nats://10.0.0.2:4222']);
    assert.equal(natsUrlList.safeParse('nats://10.0.0.1:4222,not a url').success, false);
    assert.equal(natsUrlList.safeParse(',').success, false);
  });
});
