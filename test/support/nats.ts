// Starts a real nats-server on a free loopback port for one test file; stop() in t.after / after().
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

export interface NatsHandle {
  url: string;
  port: number;
  /** Graceful stop. */
  stop(): Promise<void>;
  /** kill -9, for fault tests; start() again on the same port with restart(). */
  kill(): Promise<void>;
  restart(): Promise<void>;
}

/** A port the kernel says is free right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** How many free ports startNats tries when another process takes the one it was given first. */
const PORT_ATTEMPTS = 5;
const READY_TIMEOUT_MS = 10_000;

export async function startNats(): Promise<NatsHandle> {
  const started = await launchOnFreePort();
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
      child = await launch(port);
    },
  };
}

export class PortTakenError extends Error {}

async function launchOnFreePort(): Promise<{ port: number; child: ChildProcess }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      return { port, child: await launch(port) };
    } catch (error) {
      // Test files run concurrently, and freePort's port is free only until someone binds it: another file's
      // nats-server may have taken it. Its listener must never be mistaken for ours (the two stacks would
      // then share one NATS, and each metering service would refuse the other's keys), so a server that
      // could not bind counts as failed, and a fresh port is tried.
      if (!(error instanceof PortTakenError) || attempt >= PORT_ATTEMPTS) throw error;
    }
  }
}

/**
 * Starts nats-server on `port` and resolves once it says it is ready: its own log line, not a connection to
 * the port, which another process may be holding. Rejects if it exits first (PortTakenError when the port
 * was in use).
 */
export function launch(port: number): Promise<ChildProcess> {
  const child = spawn('nats-server', ['-a', '127.0.0.1', '-p', String(port)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  return new Promise<ChildProcess>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`nats-server did not become ready on ${port} within ${READY_TIMEOUT_MS} ms:\n${log}`));
    }, READY_TIMEOUT_MS);
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (log.length < 64 * 1024) log += chunk;
      if (log.includes('Server is ready')) {
        clearTimeout(timer);
        resolve(child);
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
