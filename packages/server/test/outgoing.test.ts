import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressAllowed, createOutgoingClient, literalAddressRefused, networksOf, OutgoingFailure, OutgoingRefusal } from '../src/http/outgoing.ts';

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
    expect(literalAddressRefused('app.example.com', allowed)).toBeNull();
  });

  describe('calling', () => {
    let server: Server;
    let base: string;
    const hits: string[] = [];
    beforeAll(async () => {
      server = createServer((request, response) => {
        hits.push(request.url ?? '');
        request.resume();
        if (request.url === '/redirect') response.writeHead(302, { location: `${base}/ok` }).end();
        else if (request.url === '/slow') setTimeout(() => response.writeHead(200).end(), 2000).unref();
        else if (request.url === '/large') response.writeHead(200).end(Buffer.alloc(1024 * 1024, 'x'));
        else response.writeHead(request.url === '/ok' ? 200 : 404).end();
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
      await expect(rebinding.post('https://app.example.com/logout', '', 'text/plain')).rejects.toThrow(/10\.0\.0\.7/);
      // One private address among public ones is enough to refuse.
      const mixed = createOutgoingClient({
        resolve: async () => [
          { address: '93.184.216.34', family: 4 },
          { address: '127.0.0.1', family: 4 },
        ],
      });
      await expect(mixed.post('https://app.example.com/logout', '', 'text/plain')).rejects.toBeInstanceOf(OutgoingRefusal);
      await expect(allowed().post('file:///etc/passwd', '', 'text/plain')).rejects.toBeInstanceOf(OutgoingRefusal);
      expect(hits.length).toBe(before);
    });

    it('connects to the address it checked, whatever the name resolves to', async () => {
      const port = new URL(base).port;
      const pinned = createOutgoingClient({ allowedNetworks: ['127.0.0.0/8'], resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
      expect((await pinned.post(`http://receiver.invalid:${port}/ok`, '', 'text/plain')).status).toBe(200);
    });

    it('does not follow a redirect, gives up after its deadline, and reads a long answer only so far', async () => {
      const before = hits.length;
      expect((await allowed().post(`${base}/redirect`, '', 'text/plain')).status).toBe(302);
      expect(hits.slice(before)).toEqual(['/redirect']);
      const started = Date.now();
      await expect(allowed().post(`${base}/slow`, '', 'text/plain')).rejects.toBeInstanceOf(OutgoingFailure);
      expect(Date.now() - started).toBeLessThan(1500);
      expect((await allowed().post(`${base}/large`, '', 'text/plain')).status).toBe(200);
    });
  });
});
