// The pm2 ecosystem: process names, modes and counts operators rely on (`pm2 scale api 4`, `pm2 logs metering`).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

import { tempDir } from '../support/temp-dir.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

interface App {
  name: string;
  exec_mode?: string;
  instances?: number;
  script: string;
  args?: string[];
  env?: Record<string, string>;
  wait_ready?: boolean;
}

/** The apps, loaded with a DATA_DIR of its own: loading makes the bus's credentials there (dist/nats-auth.mjs). */
function load(env: Record<string, string>): App[] {
  const out = execFileSync(
    process.execPath,
    ['-e', 'console.log(JSON.stringify(require("./ecosystem.config.cjs").apps))'],
    { cwd: ROOT, env: { PATH: process.env.PATH, DATA_DIR: tempDir('ecosystem'), ...env } },
  );
  return JSON.parse(String(out)) as App[];
}

describe('ecosystem.config.cjs', () => {
  it('ecosystem - runs nats, one metering, API_WORKERS api workers and the log rotation in fork mode from dist/', () => {
    const apps = load({ API_WORKERS: '3', NATS_PORT: '5333', PORT: '9000' });
    assert.deepEqual(apps.map((a) => a.name), ['nats', 'metering', 'api', 'logrotate']);
    const [nats, metering, api, logrotate] = apps;
    assert.match(logrotate.script, /dist\/logrotate\.mjs$/);
    // With the bus's users and their permissions, generated into DATA_DIR (SECURITY.md, The bus).
    assert.equal(nats.args?.[0], '-c');
    assert.match(fs.readFileSync(nats.args?.[1] ?? '', 'utf8'), /authorization \{/);
    assert.deepEqual(nats.args?.slice(2), ['-a', '127.0.0.1', '-p', '5333']);
    assert.equal(metering.instances, 1);
    assert.equal(metering.exec_mode, 'fork');
    assert.equal(api.instances, 3);
    assert.equal(api.exec_mode, 'fork');
    assert.equal(api.wait_ready, true, 'reload waits for each worker to listen');
    assert.match(api.script, /dist\/api\.mjs$/);
    assert.match(metering.script, /dist\/metering\.mjs$/);
    assert.equal(api.env?.PORT, '9000');
    // Resident size: glibc gives freed memory back instead of raising its trim threshold (ecosystem's comment).
    assert.equal(api.env?.MALLOC_TRIM_THRESHOLD_, '131072');
  });

  it('ecosystem - runs METERING_PROCESSES metering processes, each told how many share the shards', () => {
    const metering = load({ METERING_PROCESSES: '2' }).find((a) => a.name === 'metering');
    assert.equal(metering?.instances, 2);
    assert.equal(metering?.env?.METERING_PROCESSES, '2');
  });

  it('ecosystem - forwards the operating settings: metrics and retention to metering, request logging to api, rotation to logrotate', () => {
    const env = {
      PM2_HOME: '/srv/dict/pm2',
      METRICS_PORT: '9500',
      METRICS_HOST: '0.0.0.0',
      USAGE_RETENTION_DAYS: '30',
      REQUEST_LOG: 'errors',
      REQUEST_LOG_SAMPLE: '10',
      LOG_MAX_MB: '50',
      LOG_KEEP: '3',
    };
    const apps = Object.fromEntries(load(env).map((a) => [a.name, a.env ?? {}]));
    assert.deepEqual(
      [apps.metering.METRICS_PORT, apps.metering.METRICS_HOST, apps.metering.USAGE_RETENTION_DAYS],
      ['9500', '0.0.0.0', '30'],
    );
    assert.deepEqual([apps.api.REQUEST_LOG, apps.api.REQUEST_LOG_SAMPLE], ['errors', '10']);
    assert.deepEqual([apps.logrotate.PM2_HOME, apps.logrotate.LOG_MAX_MB, apps.logrotate.LOG_KEEP], ['/srv/dict/pm2', '50', '3']);
  });

  it('ecosystem - passes OPERATOR_CONTACT to the API workers when it is set', () => {
    const api = load({ OPERATOR_CONTACT: 'ops@example.org' }).find((a) => a.name === 'api');
    assert.equal(api?.env?.OPERATOR_CONTACT, 'ops@example.org', JSON.stringify(api?.env));
    const without = load({}).find((a) => a.name === 'api');
    assert.equal(without?.env?.OPERATOR_CONTACT, undefined, JSON.stringify(without?.env));
  });

  it('ecosystem - skips its own nats-server when NATS_URL names another server', () => {
    const apps = load({ NATS_URL: 'nats://10.0.0.5:4222' });
    assert.deepEqual(apps.map((a) => a.name), ['metering', 'api', 'logrotate']);
    assert.equal(apps[1].env?.NATS_URL, 'nats://10.0.0.5:4222');
  });
});

describe('ecosystem.config.cjs on a cluster', () => {
  const names = (env: Record<string, string>) => load(env).map((a) => a.name);
  const cluster = { NATS_URL: 'nats://10.0.0.1:4222,nats://10.0.0.2:4222,nats://10.0.0.3:4222' };

  it('ecosystem - HOST_ROLE=api runs the workers and no metering; with SNAPSHOT_STORE=jetstream the snapshots agent too', () => {
    assert.deepEqual(names({ ...cluster, HOST_ROLE: 'api' }), ['api', 'logrotate']);
    assert.deepEqual(names({ ...cluster, HOST_ROLE: 'api', SNAPSHOT_STORE: 'jetstream' }), ['api', 'snapshots', 'logrotate']);
  });

  it('ecosystem - HOST_ROLE=metering runs metering and no workers, nor the snapshots agent', () => {
    assert.deepEqual(names({ ...cluster, HOST_ROLE: 'metering', SNAPSHOT_STORE: 'jetstream' }), ['metering', 'logrotate']);
  });

  it('ecosystem - NATS_SERVER_CONF runs this host\'s member of the cluster as the nats app, and NATS_URL reaches every process', () => {
    const apps = load({ ...cluster, NATS_SERVER_CONF: '/srv/dict/nats/cluster.conf', SNAPSHOT_STORE: 'jetstream' });
    const nats = apps.find((a) => a.name === 'nats');
    assert.deepEqual(nats?.args, ['-c', '/srv/dict/nats/cluster.conf']);
    for (const name of ['metering', 'api', 'snapshots']) assert.equal(apps.find((a) => a.name === name)?.env?.NATS_URL, cluster.NATS_URL, name);
  });

  it('ecosystem - refuses a HOST_ROLE it does not know', () => {
    assert.throws(() => load({ HOST_ROLE: 'web' }), /HOST_ROLE must be all, api or metering/);
  });
});

describe('configuration check', () => {
  it('check-config - names every bad variable and exits non-zero', () => {
    let stderr = '';
    try {
      execFileSync(process.execPath, ['--import', 'tsx', 'scripts/check-config.ts'], {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH,
          PORT: 'eighty',
          API_WORKERS: '0',
          TRUST_PROXY: 'not-an-ip',
          REQUEST_LOG: 'some',
          METRICS_PORT: '70000',
          USAGE_RETENTION_DAYS: '0',
          LOG_MAX_MB: 'big',
          HOST_ROLE: 'web',
          NATS_URL: 'nats://10.0.0.1:4222,not a url',
          SNAPSHOT_STORE: 's3',
        },
        stdio: 'pipe',
      });
      assert.fail('expected a non-zero exit');
    } catch (err) {
      stderr = String((err as { stderr?: Buffer }).stderr);
    }
    for (const name of ['PORT', 'API_WORKERS', 'TRUST_PROXY', 'REQUEST_LOG', 'METRICS_PORT', 'USAGE_RETENTION_DAYS', 'LOG_MAX_MB', 'HOST_ROLE', 'NATS_URL', 'SNAPSHOT_STORE']) {
      assert.match(stderr, new RegExp(`\\b${name}[.:]`), stderr);
    }
  });
});
