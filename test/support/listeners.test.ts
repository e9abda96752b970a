// Listeners on a port and their owners, from /proc (test/support/listeners.ts), as the test stack uses them to
// refuse a port a concurrent test file's stack also listens on.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:net';
import type { AddressInfo, Server } from 'node:net';
import { describe, it } from 'node:test';

import { listeningInodes, onUnsharedPort, socketInodes, strangeListeners } from './listeners.ts';

async function listen(port: number): Promise<Server> {
  const server = createServer();
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  return server;
}

async function close(server: Server): Promise<void> {
  server.close();
  await once(server, 'close');
}

describe('test listeners', () => {
  it('test listeners - a listening socket is found on its port, owned by its process, a stranger to others', async () => {
    const server = createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    try {
      const listening = listeningInodes(port);
      assert.equal(listening.size, 1);
      const [inode] = listening;
      assert.ok(socketInodes(process.pid).has(inode));
      assert.deepEqual(strangeListeners(port, [process.pid]), []);
      assert.deepEqual(strangeListeners(port, []), [inode]);
    } finally {
      server.close();
      await once(server, 'close');
    }
    assert.equal(listeningInodes(port).size, 0);
  });

  it('test listeners - a start whose port has a stranger on it is undone and tried again on another port', async () => {
    const stopped: number[] = [];
    let attempts = 0;
    // The first start's listener passes for a stranger's (its pid is not given), the second's for its own.
    const { port, started } = await onUnsharedPort(
      async (p) => ({ server: await listen(p), attempt: ++attempts }),
      ({ attempt }) => (attempt === 1 ? [] : [process.pid]),
      async ({ server }) => {
        stopped.push((server.address() as AddressInfo).port);
        await close(server);
      },
    );
    try {
      assert.equal(attempts, 2);
      assert.equal(stopped.length, 1);
      assert.notEqual(stopped[0], port);
      assert.equal((started.server.address() as AddressInfo).port, port);
    } finally {
      await close(started.server);
    }
  });

  it('test listeners - a port shared at every attempt is refused after the last one, each start undone', async () => {
    let stops = 0;
    await assert.rejects(
      onUnsharedPort(listen, () => [], async (server) => {
        stops++;
        await close(server);
      }),
      /is shared with another process's listener/,
    );
    assert.equal(stops, 5);
  });
});
