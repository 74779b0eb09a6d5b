import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressAllowed, createOutgoingClient, literalAddressRefused, OutgoingRefusal } from '../src/http/outgoing.ts';
import { networksOf } from '../src/networks.ts';

// The guarded outgoing client (issue 22, docs/decisions/0029): what the server calls at an address a
// project registered, against real listening servers on loopback (allowed here as the operator would).
describe('the guarded outgoing client', () => {
  const none = networksOf([]);

  it('refuses loopback, private, link-local, shared, multicast and unspecified addresses, in every IPv6 spelling, and takes public ones', () => {
    for (const address of [
      '127.0.0.1',
      '127.8.9.10',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fd12:3456::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
      '64:ff9b::10.0.0.1',
      '0:0:0:0:0:ffff:7f00:1',
      '::7f00:1',
      '::ffff:0:7f00:1',
      '64:ff9b:1::a00:1',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      '2001:10::1',
      '2002:7f00:1::1',
    ]) {
      expect(addressAllowed(address, none), address).toBe(false);
    }
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])
      expect(addressAllowed(address, none), address).toBe(true);
  });

  it('takes what the operator allows, and only that', () => {
    const allowed = networksOf(['10.1.0.0/16', '::1']);
    expect(addressAllowed('10.1.2.3', allowed)).toBe(true);
    expect(addressAllowed('10.2.0.1', allowed)).toBe(false);
    expect(addressAllowed('::1', allowed)).toBe(true);
    expect(addressAllowed('127.0.0.1', allowed)).toBe(false);
    expect(literalAddressRefused('[::1]', allowed)).toBe(false);
    expect(literalAddressRefused('localhost', allowed)).toBe(true);
    expect(literalAddressRefused('LocalHost.', allowed)).toBe(true);
    expect(literalAddressRefused('api.localhost.', allowed)).toBe(true);
    expect(literalAddressRefused('app.example.com', allowed)).toBeNull();
  });

  describe('calling', () => {
    let server: Server;
    let base: string;
    const hits: string[] = [];
    /** How much of the endless answer at /endless the server could write before the client hung up. */
    let endless: Promise<number> = Promise.resolve(0);
    beforeAll(async () => {
      server = createServer((request, response) => {
        hits.push(request.url ?? '');
        request.resume();
        if (request.url === '/redirect') response.writeHead(302, { location: `${base}/ok` }).end();
        else if (request.url === '/slow') setTimeout(() => response.writeHead(200).end(), 2000).unref();
        else if (request.url === '/endless') {
          // Writes 64 KB chunks for as long as the client reads them (at most 64 MB).
          endless = new Promise((settled) => {
            let written = 0;
            response.writeHead(200);
            const more = () => {
              while (written < 64 * 1024 * 1024) {
                written += 64 * 1024;
                if (!response.write(Buffer.alloc(64 * 1024, 'x'))) return void response.once('drain', more);
              }
              response.end();
            };
            response.on('close', () => settled(written));
            more();
          });
        } else response.writeHead(request.url === '/ok' ? 200 : 404).end();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });
    const allowed = () => createOutgoingClient({ allowedNetworks: ['127.0.0.0/8'], timeoutMs: 300, maxResponseBytes: 1024 });

    it('posts to an allowed address and answers its status', async () => {
      expect((await allowed().post(`${base}/ok`, 'a=1', 'application/x-www-form-urlencoded')).status).toBe(200);
      expect(hits.at(-1)).toBe('/ok');
    });

    it('sends nothing to a loopback address the operator did not allow, nor to a name resolving to a private one', async () => {
      const before = hits.length;
      await expect(createOutgoingClient().post(`${base}/ok`, '', 'text/plain')).rejects.toBeInstanceOf(OutgoingRefusal);
      const rebinding = createOutgoingClient({ resolve: async () => [{ address: '10.0.0.7', family: 4 }] });
      // The address is in the message (the server's log), not in the reason (the audit event's word).
      await expect(rebinding.post('https://app.example.com/logout', '', 'text/plain')).rejects.toMatchObject({
        reason: 'address_refused',
        message: expect.stringMatching(/10\.0\.0\.7/),
      });
      await expect(createOutgoingClient().post('http://localhost./x', '', 'text/plain')).rejects.toMatchObject({ reason: 'address_refused' });
      // One private address among public ones is enough to refuse.
      const mixed = createOutgoingClient({
        resolve: async () => [
          { address: '93.184.216.34', family: 4 },
          { address: '127.0.0.1', family: 4 },
        ],
      });
      await expect(mixed.post('https://app.example.com/logout', '', 'text/plain')).rejects.toBeInstanceOf(OutgoingRefusal);
      await expect(allowed().post('file:///etc/passwd', '', 'text/plain')).rejects.toMatchObject({ reason: 'url_refused' });
      expect(hits.length).toBe(before);
    });

    it('connects to the address it checked, whatever the name resolves to', async () => {
      const port = new URL(base).port;
      const pinned = createOutgoingClient({ allowedNetworks: ['127.0.0.0/8'], resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
      expect((await pinned.post(`http://receiver.invalid:${port}/ok`, '', 'text/plain')).status).toBe(200);
      // Every checked address is offered to the connection (the first one here answers nothing).
      const both = createOutgoingClient({
        allowedNetworks: ['127.0.0.0/8', '::1'],
        resolve: async () => [
          { address: '::1', family: 6 },
          { address: '127.0.0.1', family: 4 },
        ],
      });
      expect((await both.post(`http://receiver.invalid:${port}/ok`, '', 'text/plain')).status).toBe(200);
    });

    it('counts resolving the name in its deadline, and says why a call failed in a word', async () => {
      const started = Date.now();
      const slowDns = createOutgoingClient({ timeoutMs: 300, resolve: () => new Promise(() => undefined) });
      await expect(slowDns.post('https://app.example.com/logout', '', 'text/plain')).rejects.toMatchObject({ reason: 'timeout' });
      expect(Date.now() - started).toBeLessThan(1500);
      const noName = createOutgoingClient({ resolve: () => Promise.reject(Object.assign(new Error('nope'), { code: 'ENOTFOUND' })) });
      await expect(noName.post('https://app.example.com/logout', '', 'text/plain')).rejects.toMatchObject({ reason: 'dns_failed' });
      // A port nothing listens on.
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const port = (closed.address() as AddressInfo).port;
      await new Promise((resolve) => closed.close(resolve));
      await expect(allowed().post(`http://127.0.0.1:${port}/`, '', 'text/plain')).rejects.toMatchObject({ reason: 'connect_failed' });
      // TLS to a server that speaks plain HTTP.
      await expect(allowed().post(base.replace('http:', 'https:') + '/ok', '', 'text/plain')).rejects.toMatchObject({ reason: 'tls_failed' });
    });

    it('does not follow a redirect, gives up after its deadline, and reads a long answer only so far', async () => {
      const before = hits.length;
      expect((await allowed().post(`${base}/redirect`, '', 'text/plain')).status).toBe(302);
      expect(hits.slice(before)).toEqual(['/redirect']);
      const started = Date.now();
      await expect(allowed().post(`${base}/slow`, '', 'text/plain')).rejects.toMatchObject({ reason: 'timeout' });
      expect(Date.now() - started).toBeLessThan(1500);
      expect((await allowed().post(`${base}/endless`, '', 'text/plain')).status).toBe(200);
      // The client hung up after its bound: the server wrote what the sockets' buffers hold, not 64 MB.
      expect(await endless).toBeLessThan(16 * 1024 * 1024);
    });
  });
});
