// A real nginx in front of a test stack, running docs/nginx.conf with its ports replaced: one foreground
// process of its own (prefix, pid file and logs in a temp directory), stopped by its pid.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { freePort } from './free-port.ts';

import type { ChildProcess } from 'node:child_process';

const ROOT = path.resolve(import.meta.dirname, '../..');
export const NGINX_CONF = path.join(ROOT, 'docs/nginx.conf');
/** Debian installs nginx in /usr/sbin, which an unprivileged user's PATH may lack. */
const NGINX = fs.existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx';
const START_TIMEOUT_MS = 10_000;

export interface Nginx {
  port: number;
  /** Its processes: the one process, or the master and its workers. */
  pids(): number[];
  /** nginx's error log so far. */
  errors(): string;
  stop(): Promise<void>;
}

export interface NginxOptions {
  /** The site configuration to run (default: this tree's docs/nginx.conf; the bench passes its subject's). */
  conf?: string;
  /**
   * Worker processes; 0 (the default) runs one process, no master, which is all a test needs. The bench runs
   * `auto` workers under a master, as a deployment does.
   */
  workers?: 0 | 'auto';
  /** Connections each worker process may hold, clients' and upstream ones together. */
  workerConnections?: number;
  /**
   * The error log's level: `info` (the default) keeps the refusals' lines (`limiting requests`), one per
   * refused request, that the tests look for; the bench runs at `error`, the level of nginx's packaged
   * configuration, which writes none of them.
   */
  errorLogLevel?: 'info' | 'error';
}

/** The documented configuration with nginx listening on `listenPort` and the workers on `upstreamPort`. */
export function siteConfig(listenPort: number, upstreamPort: number, confPath = NGINX_CONF): string {
  const conf = fs.readFileSync(confPath, 'utf8');
  const site = conf.replace(/server 127\.0\.0\.1:\d+;/, `server 127.0.0.1:${upstreamPort};`).replace(/listen \d+;/, `listen 127.0.0.1:${listenPort};`);
  if (site === conf) throw new Error(`${confPath} no longer has the listen and server lines this helper replaces`);
  return site;
}

export async function startNginx(upstreamPort: number, options: NginxOptions = {}): Promise<Nginx> {
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'dict-nginx-'));
  // nginx's workers run as an unprivileged user when the master is root: they reach their temp folders here.
  if (options.workers === 'auto') fs.chmodSync(prefix, 0o711);
  const port = await freePort();
  fs.writeFileSync(path.join(prefix, 'site.conf'), siteConfig(port, upstreamPort, options.conf));
  const errorLog = path.join(prefix, 'error.log');
  fs.writeFileSync(
    path.join(prefix, 'nginx.conf'),
    [
      'daemon off;',
      options.workers === 'auto' ? 'worker_processes auto;' : 'master_process off;',
      `pid ${path.join(prefix, 'nginx.pid')};`,
      `error_log ${errorLog} ${options.errorLogLevel ?? 'info'};`,
      `events { worker_connections ${options.workerConnections ?? 512}; }`,
      'http {',
      '  access_log off;',
      `  include ${path.join(prefix, 'site.conf')};`,
      '}',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(NGINX, ['-p', prefix, '-c', path.join(prefix, 'nginx.conf'), '-e', errorLog], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const errors = () => `${output}${fs.existsSync(errorLog) ? fs.readFileSync(errorLog, 'utf8') : ''}`;
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`nginx did not start: ${errors()}`);
    }
    await sleep(50);
  }
  return {
    port,
    pids: () => (child.pid === undefined ? [] : [child.pid, ...childrenOf(child.pid)]),
    errors,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(prefix, { recursive: true, force: true });
    },
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function childrenOf(pid: number): number[] {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}
