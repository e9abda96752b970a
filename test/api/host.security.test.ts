// The Host header against ALLOWED_HOSTS (DNS rebinding: a page of another site whose name now points at this
// server sends its own name as Host): every route refuses a Host not listed, before it runs, with 400 bad_request
// in the error shape, and serves the listed names with any port and in any case. Over the real stack.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';

import { hostName } from '../../services/api/http/host.ts';
import { startApi } from './support.ts';

import type { Api } from './support.ts';

let api: Api;
before(async () => {
  api = await startApi({ workers: 1, env: { ALLOWED_HOSTS: 'api.example.org, 127.0.0.1' } });
});
after(async () => {
  await api?.stack.stop();
});

/** The whole response to `request`, written as it is (Connection: close, so that it ends with the response). */
async function raw(request: string): Promise<string> {
  const socket = net.connect(api.stack.port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(request);
  let text = '';
  for await (const chunk of socket) text += (chunk as Buffer).toString('utf8');
  return text;
}

const request = (line: string, host: string, extra = ''): string =>
  `${line} HTTP/1.1\r\nHost: ${host}\r\nX-API-Key: ${api.key}\r\nConnection: close\r\n${extra}\r\n`;

describe('Host header', () => {
  const ROUTES = ['GET /', 'GET /api/v1/stats', 'GET /api/v1/words?q=omo', 'GET /healthz', 'GET /api/v1/openapi.json', 'GET /downloads/index.json', 'GET /nothing-here'];

  test('Host header - a name not listed is refused with 400 bad_request on every route, nosniff', async () => {
    for (const line of [...ROUTES, 'POST /api/v1/developers']) {
      const body = line.startsWith('POST') ? '{"name":"R","email":"r@example.org"}' : '';
      const extra = body ? `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n` : '';
      const reply = await raw(`${request(line, 'rebound.attacker.example', extra)}${body}`);
      assert.match(reply, /^HTTP\/1\.1 400/, `${line}: ${reply}`);
      assert.match(reply, /\r\nx-content-type-options: nosniff/i, `${line}: ${reply}`);
      assert.match(reply, /\{"error":\{"code":"bad_request","message":"The Host header names no site this server answers for\."\}\}/, `${line}: ${reply}`);
    }
  });

  test('Host header - the listed names are served, with any port and in any case', async () => {
    for (const host of ['api.example.org', 'API.Example.org:8443', `127.0.0.1:${api.stack.port}`]) {
      for (const line of ROUTES.slice(0, 4)) {
        const reply = await raw(request(line, host));
        assert.match(reply, /^HTTP\/1\.1 200/, `${host} ${line}: ${reply.slice(0, 300)}`);
      }
    }
  });

  test('Host header - a name is read without its port; an IPv6 literal keeps its brackets', () => {
    assert.equal(hostName('API.example.org:443'), 'api.example.org');
    assert.equal(hostName('[::1]:8080'), '[::1]');
    assert.equal(hostName('localhost'), 'localhost');
  });
});
