// Starts a real nats-server on a free loopback port for one test file; stop() in t.after / after().
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { connect } from 'node:net';

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

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    await sleep(50);
  }
  throw new Error(`nats-server did not listen on ${port} within ${timeoutMs} ms`);
}

export async function startNats(): Promise<NatsHandle> {
  const port = await freePort();
  let child = launch(port);
  await waitForPort(port, 10_000);
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
      child = launch(port);
      await waitForPort(port, 10_000);
    },
  };
}

function launch(port: number) {
  const child = spawn('nats-server', ['-a', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
  child.on('error', (err) => {
    throw new Error(`cannot start nats-server (is it installed? apt-get install -y nats-server): ${err.message}`);
  });
  return child;
}
