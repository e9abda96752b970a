// Starts a real nats-server on a free loopback port for one test file; stop() in t.after / after().
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';

import { freePort } from './free-port.ts';

export interface NatsHandle {
  url: string;
  port: number;
  /** Graceful stop. */
  stop(): Promise<void>;
  /** kill -9, for fault tests; start() again on the same port with restart(). */
  kill(): Promise<void>;
  restart(): Promise<void>;
}

const READY_TIMEOUT_MS = 10_000;
/** Free ports tried before giving up, each found taken by another process. */
const PORT_ATTEMPTS = 5;

/** `configFile`: a nats-server config (the bus's users, services/shared/nats-auth); none: a server without users. */
export async function startNats(options: { configFile?: string } = {}): Promise<NatsHandle> {
  // A port outside the ephemeral range (freePort), because restart() binds it again after a kill: one of
  // the kernel's choosing could meanwhile become an outgoing connection's local port. A port another test file
  // took between the choice and the bind is refused (PortTakenError, never shared), and another is tried.
  let started: { child: ChildProcess; port: number } | undefined;
  for (let attempt = 1; started === undefined; attempt++) {
    try {
      started = await launch(await freePort(), options.configFile);
    } catch (error) {
      if (!(error instanceof PortTakenError) || attempt >= PORT_ATTEMPTS) throw error;
    }
  }
  const { port } = started;
  let { child } = started;
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    async stop() {
      if (exited()) return;
      const done = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await done;
    },
    async kill() {
      if (exited()) return;
      const done = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await done;
    },
    async restart() {
      // The clients reconnect to the same URL, so the same port; if another process took it meanwhile, this
      // fails (PortTakenError) rather than adopting that process's server.
      child = (await launch(port, options.configFile)).child;
    },
  };
}

export class PortTakenError extends Error {}

const LISTENING = /Listening for client connections on [\d.]+:(\d+)/;

/**
 * Starts nats-server on `port` and resolves once it says it is ready, with the port
 * it says it listens on: its own log lines, not a connection to the port, which another process may hold.
 * Rejects if it exits first (PortTakenError when the port was in use).
 */
export function launch(port: number, configFile?: string): Promise<{ child: ChildProcess; port: number }> {
  const config = configFile === undefined ? [] : ['-c', configFile];
  const child = spawn('nats-server', [...config, '-a', '127.0.0.1', '-p', String(port)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`nats-server did not become ready on ${port} within ${READY_TIMEOUT_MS} ms:\n${log}`));
    }, READY_TIMEOUT_MS);
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (log.length < 64 * 1024) log += chunk;
      const listening = LISTENING.exec(log);
      if (listening && log.includes('Server is ready')) {
        clearTimeout(timer);
        resolve({ child, port: Number(listening[1]) });
      }
    });
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`cannot start nats-server (is it installed? apt-get install -y nats-server): ${err.message}`));
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      const taken = log.includes('address already in use');
      reject(taken ? new PortTakenError(`port ${port} is taken`) : new Error(`nats-server exited (${code ?? signal}) before it was ready:\n${log}`));
    });
  });
}
