import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver took. */
export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * An application's endpoint the server calls out to (a back-channel logout URI), listening on a free
 * loopback port: it keeps every request and answers `status` (changeable meanwhile).
 */
export interface Receiver {
  url: string;
  received: Received[];
  status: number;
  /** Waits until it has taken `count` requests in all (at most `timeoutMs`), and answers them. */
  until(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** `port`: where it listens (a receiver started again where one was down); a free one by default. */
export async function startReceiver(port = 0): Promise<Receiver> {
  const received: Received[] = [];
  const waiting: Array<() => void> = [];
  const receiver = {
    url: '',
    received,
    status: 200,
    async until(count: number, timeoutMs = 5000): Promise<Received[]> {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`the receiver took ${received.length} requests, not ${count}, within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiting.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return received.slice(0, count);
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.writeHead(receiver.status, { 'cache-control': 'no-store' }).end();
      for (const wake of waiting.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}
