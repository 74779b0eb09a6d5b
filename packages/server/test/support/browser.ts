/**
 * A minimal browser for the sign-in flows: real HTTP, a cookie jar honouring Path and Max-Age,
 * redirects followed by hand so each hop can be asserted.
 */
interface StoredCookie {
  name: string;
  value: string;
  path: string;
  host: string;
}

export interface BrowserResponse {
  url: string;
  status: number;
  headers: Headers;
  text: string;
  location: string | null;
  json<T = unknown>(): T;
}

let clients = 0;
/** A documentation-range address (198.18.0.0/15, RFC 2544) per Browser. */
function nextClientIp(): string {
  clients += 1;
  return `198.18.${Math.floor(clients / 250) % 250}.${(clients % 250) + 1}`;
}

export class Browser {
  readonly #cookies = new Map<string, StoredCookie>();
  /**
   * The address this browser appears to come from: sent as X-Forwarded-For, which the test app
   * believes from loopback (startTestApp's TRUST_PROXY). Two Browsers given one address share it.
   */
  readonly clientIp: string;
  /**
   * Where a request really goes (cookies still follow the address asked for): e.g. alternately to
   * two server instances behind one PUBLIC_URL, as a load balancer would send them.
   */
  readonly #via: (url: URL) => URL;

  constructor(options: { clientIp?: string; via?: (url: URL) => URL } = {}) {
    this.clientIp = options.clientIp ?? nextClientIp();
    this.#via = options.via ?? ((url) => url);
  }

  cookie(name: string): string | undefined {
    return [...this.#cookies.values()].find((c) => c.name === name)?.value;
  }

  cookieNames(): string[] {
    return [...this.#cookies.values()].map((c) => c.name);
  }

  #store(url: URL, header: string): void {
    const [pair, ...attrs] = header.split(';');
    const eq = (pair ?? '').indexOf('=');
    const name = (pair ?? '').slice(0, eq).trim();
    const value = (pair ?? '').slice(eq + 1).trim();
    let path = '/';
    let expired = false;
    for (const attr of attrs) {
      const [k = '', v = ''] = attr.split('=').map((s) => s.trim());
      const key = k.toLowerCase();
      if (key === 'path') path = v;
      if (key === 'max-age' && Number(v) <= 0) expired = true;
      if (key === 'expires' && new Date(v).getTime() <= Date.now()) expired = true;
    }
    const id = `${url.host}|${path}|${name}`;
    if (expired || value === '') this.#cookies.delete(id);
    else this.#cookies.set(id, { name, value, path, host: url.host });
  }

  #cookieHeader(url: URL): string {
    return [...this.#cookies.values()]
      .filter((c) => c.host === url.host && (url.pathname === c.path || url.pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`)))
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  async request(
    url: string,
    init: { method?: string; headers?: Record<string, string>; form?: Record<string, string>; json?: unknown; urlencoded?: string } = {},
  ): Promise<BrowserResponse> {
    const target = new URL(url);
    const headers: Record<string, string> = { 'x-forwarded-for': this.clientIp, ...init.headers };
    const cookie = this.#cookieHeader(target);
    if (cookie) headers.cookie = cookie;
    let body: string | undefined;
    if (init.form || init.urlencoded !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      // `urlencoded` is sent as it is: a form no browser would encode that way.
      body = init.urlencoded ?? new URLSearchParams(init.form).toString();
    } else if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    }
    const response = await fetch(this.#via(new URL(target)), { method: init.method ?? (body ? 'POST' : 'GET'), headers, body, redirect: 'manual' });
    for (const setCookie of response.headers.getSetCookie()) this.#store(target, setCookie);
    const text = await response.text();
    const location = response.headers.get('location');
    return {
      url: target.href,
      status: response.status,
      headers: response.headers,
      text,
      location: location ? new URL(location, target).href : null,
      json: <T>() => JSON.parse(text) as T,
    };
  }

  get(url: string, headers?: Record<string, string>): Promise<BrowserResponse> {
    return this.request(url, headers ? { headers } : {});
  }

  /** Follows redirects (GET) until a non-redirect answer or a URL matching `stopAt`; answers every hop. */
  async follow(first: BrowserResponse, stopAt?: (url: string) => boolean): Promise<BrowserResponse[]> {
    const hops = [first];
    let current = first;
    while (current.status >= 300 && current.status < 400 && current.location) {
      if (stopAt?.(current.location)) break;
      if (hops.length > 20) throw new Error('too many redirects');
      current = await this.get(current.location);
      hops.push(current);
    }
    return hops;
  }
}
