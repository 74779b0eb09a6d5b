import { describe, expect, it } from 'vitest';
import { errorOfLine, lineFormatFor, serverLog, socketListening, textLine } from '../src/log.ts';

// Issue 38: a person at a terminal reads words, a machine reads JSON (README "Configuration", LOG_FORMAT).
describe('the server’s lines for a person', () => {
  const at = new Date(2026, 10, 28, 18, 51, 27).getTime();

  it('read as the time, the level and the words, the start-up address and the sign-in code as they are', () => {
    expect(textLine(JSON.stringify({ level: 30, time: at, msg: 'Latchkey is running at http://localhost:8080' }))).toBe(
      '18:51:27 INFO  Latchkey is running at http://localhost:8080\n',
    );
    const code = { level: 30, time: at, requestId: 'b1c2', msg: 'Sign-in code for you@example.com: 123456' };
    expect(textLine(JSON.stringify(code))).toBe('18:51:27 INFO  Sign-in code for you@example.com: 123456 requestId=b1c2\n');
  });

  it('name the line’s other fields, the request’s id last, and leave out the process’s', () => {
    const answered = {
      level: 20,
      time: at,
      pid: 7,
      hostname: 'vm',
      requestId: 'lb-1',
      msg: 'request answered',
      method: 'GET',
      route: '/healthz',
      status: 200,
      ms: 3,
    };
    expect(textLine(JSON.stringify(answered))).toBe('18:51:27 DEBUG request answered method=GET route=/healthz status=200 ms=3 requestId=lb-1\n');
    expect(textLine(JSON.stringify({ level: 40, time: at, msg: 'odd', reason: 'two words', list: [1] }))).toBe(
      '18:51:27 WARN  odd reason="two words" list=[1]\n',
    );
  });

  it('put an error’s stack below its line, indented', () => {
    const err = { type: 'Error', message: 'connect ECONNREFUSED', stack: 'Error: connect ECONNREFUSED\n    at connect (net.js:1:1)' };
    expect(textLine(JSON.stringify({ level: 50, time: at, msg: 'request failed', err }))).toBe(
      '18:51:27 ERROR request failed\n    Error: connect ECONNREFUSED\n        at connect (net.js:1:1)\n',
    );
  });

  it('are text on a terminal unless LOG_FORMAT says json, and JSON elsewhere unless it says text', () => {
    expect(lineFormatFor(1, undefined, true)).toBe('text');
    expect(lineFormatFor(1, 'json', true)).toBe('json');
    expect(lineFormatFor(2, undefined, false)).toBe('json');
    expect(lineFormatFor(1, 'text', false)).toBe('text');
  });

  it('keep the socket’s own address out of the info lines: Fastify’s listening line is at debug', () => {
    const lines: string[] = [];
    const at = (level: string) => {
      lines.length = 0;
      serverLog({ level, stream: { write: (line) => lines.push(line) } }).info(socketListening('http://127.0.0.1:8080'));
      return lines.map((line) => JSON.parse(line) as { level: number; msg: string });
    };
    expect(at('info')).toEqual([]);
    expect(at('debug')).toMatchObject([{ level: 20, msg: 'socket listening on http://127.0.0.1:8080' }]);
  });

  it('hold an error’s type, words, code, stack and cause, never what else it carries (a refused request’s bytes)', () => {
    const refused = Object.assign(new Error('Parse Error: Invalid header token'), {
      code: 'HPE_INVALID_HEADER_TOKEN',
      rawPacket: Buffer.from('POST / HTTP/1.1\r\nCookie: lk_session=secret\r\n'),
      cause: Object.assign(new TypeError('deeper'), { body: 'client_secret=s3cret' }),
    });
    const line: string[] = [];
    serverLog({ level: 'trace', stream: { write: (l) => line.push(l) } }).trace({ err: refused }, 'client error');
    const { err } = JSON.parse(line.join('')) as { err: Record<string, unknown> };
    expect(err).toEqual({
      type: 'Error',
      message: 'Parse Error: Invalid header token',
      code: 'HPE_INVALID_HEADER_TOKEN',
      stack: expect.stringContaining('Parse Error: Invalid header token') as unknown,
      cause: { type: 'TypeError', message: 'deeper', stack: expect.stringContaining('TypeError: deeper') as unknown },
    });
    expect(errorOfLine('not an error')).toEqual({ type: 'string' });
  });
});
