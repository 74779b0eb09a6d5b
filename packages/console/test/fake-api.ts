import { vi } from 'vitest';

/** A call the console made, as the fake server saw it. */
export interface ApiCall {
  method: string;
  /** Path under /api, e.g. `/projects/p1`. */
  path: string;
  query: URLSearchParams;
  headers: Headers;
  body: unknown;
}

export interface FakeAnswer {
  status?: number;
  body?: unknown;
  /** A body that is not JSON (an exported file), sent as it is, in `chunks` when given as several. */
  text?: string | string[];
  /** A body that arrives as the test writes it. */
  stream?: ReadableStream<Uint8Array>;
  headers?: Record<string, string>;
}

type Responder = FakeAnswer | ((call: ApiCall) => FakeAnswer | Promise<FakeAnswer>);

/**
 * Replaces `fetch` with a fake of the API: answers by `METHOD /path` (path under /api), records every
 * call, and answers 404 `not_found` to anything it was not told about.
 */
export function fakeApi(routes: Record<string, Responder>) {
  const calls: ApiCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const path = url.pathname.replace(/^\/api/, '');
    const rawBody = typeof init?.body === 'string' ? init.body : null;
    const call: ApiCall = {
      method,
      path,
      query: url.searchParams,
      headers: new Headers(init?.headers),
      body: rawBody ? (JSON.parse(rawBody) as unknown) : undefined,
    };
    calls.push(call);
    const responder = routes[`${method} ${path}`];
    const answer: FakeAnswer = !responder
      ? { status: 404, body: { error: 'not_found', message: `No fake answer for ${method} ${path}` } }
      : typeof responder === 'function'
        ? await responder(call)
        : responder;
    if (answer.stream) return new Response(answer.stream, { status: answer.status ?? 200, headers: { ...answer.headers } });
    if (answer.text !== undefined) {
      const chunks = (Array.isArray(answer.text) ? answer.text : [answer.text]).map((chunk) => new TextEncoder().encode(chunk));
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(chunk);
          controller.close();
        },
      });
      return new Response(stream, { status: answer.status ?? 200, headers: { ...answer.headers } });
    }
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'Content-Type': 'application/json', ...answer.headers },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    /** The calls made to `METHOD /path`. */
    callsTo(key: string): ApiCall[] {
      return calls.filter((c) => `${c.method} ${c.path}` === key);
    },
  };
}
