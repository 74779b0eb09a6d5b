import { createServer, type AddressInfo, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { consoleMailer, smtpMailer } from '../src/mail/mailer.ts';
import { latchkeyCodeMessage } from '../src/oidc/login-codes.service.ts';

/** A minimal SMTP server on loopback that keeps what it is sent (RFC 5321 happy path only). */
async function startSmtpSink(): Promise<{ server: Server; url: string; messages: Array<{ from: string; to: string[]; data: string }> }> {
  const messages: Array<{ from: string; to: string[]; data: string }> = [];
  const server = createServer((socket) => {
    let buffer = '';
    let inData = false;
    let current = { from: '', to: [] as string[], data: '' };
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 sink ESMTP');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end === -1) return;
          current.data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          messages.push(current);
          current = { from: '', to: [], data: '' };
          reply('250 queued');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol === -1) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') reply('250 sink');
        else if (verb === 'MAIL') {
          current.from = line.replace(/^MAIL FROM:\s*/i, '');
          reply('250 ok');
        } else if (verb === 'RCPT') {
          current.to.push(line.replace(/^RCPT TO:\s*/i, ''));
          reply('250 ok');
        } else if (verb === 'DATA') {
          inData = true;
          reply('354 go on');
        } else if (verb === 'QUIT') {
          reply('221 bye');
          socket.end();
        } else reply('250 ok');
      }
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return { server, url: `smtp://127.0.0.1:${port}`, messages };
}

describe('mailers', () => {
  let sink: Server | null = null;
  afterEach(async () => {
    await new Promise<void>((ok) => (sink ? sink.close(() => ok()) : ok()));
    sink = null;
  });

  it('without SMTP writes one line holding the recipient and the code', async () => {
    const lines: string[] = [];
    await consoleMailer((line) => lines.push(line)).sendLoginCode('ada@example.com', '123456', latchkeyCodeMessage('123456', 10));
    expect(lines).toEqual(['Sign-in code for ada@example.com: 123456']);
  });

  it('with SMTP_URL sends the code by mail to the recipient', async () => {
    const started = await startSmtpSink();
    sink = started.server;
    await smtpMailer(started.url, 'Latchkey <no-reply@latchkey.test>').sendLoginCode('ada@example.com', '654321', latchkeyCodeMessage('654321', 10));
    expect(started.messages).toHaveLength(1);
    const [message] = started.messages;
    expect(message?.from).toContain('no-reply@latchkey.test');
    expect(message?.to).toEqual(['<ada@example.com>']);
    expect(message?.data).toMatch(/^Subject: Your Latchkey sign-in code: 654321/m);
    expect(message?.data).toContain('Your sign-in code is 654321.');
  });

  it('writes every kind of mail as one line without SMTP, and sends each, in its language, with SMTP', async () => {
    const lines: string[] = [];
    const invitation = { consoleUrl: 'https://console.test/', projectName: 'Acme', invitedBy: 'grace@example.com' };
    const linkWords = { language: 'fr', subject: 'Votre lien', text: 'Ouvrez https://id.test/l/abc' };
    await consoleMailer((line) => lines.push(line)).sendLoginLink('ada@example.com', 'https://id.test/l/abc', linkWords);
    await consoleMailer((line) => lines.push(line)).sendInvitation('ada@example.com', invitation);
    expect(lines).toEqual([
      'Sign-in link for ada@example.com: https://id.test/l/abc',
      'Invitation for ada@example.com: Acme, sign in at https://console.test/',
    ]);

    const started = await startSmtpSink();
    sink = started.server;
    const smtp = smtpMailer(started.url, 'Latchkey <no-reply@latchkey.test>');
    await smtp.sendLoginLink('ada@example.com', 'https://id.test/l/abc', linkWords);
    await smtp.sendInvitation('ada@example.com', invitation);
    const [link, invited] = started.messages;
    expect(link?.data).toMatch(/^Content-Language: fr/m);
    expect(link?.data).toContain('Ouvrez https://id.test/l/abc');
    expect(invited?.data).toMatch(/^Subject: You have been added to Acme on Latchkey/m);
    expect(invited?.data).toContain('grace@example.com added you to the project Acme on Latchkey.');
  });

  it('with an SMTP server that is down, sending fails (the sign-in page reports it)', async () => {
    const started = await startSmtpSink();
    const url = started.url;
    await new Promise<void>((ok) => started.server.close(() => ok()));
    await expect(smtpMailer(url, 'x@latchkey.test').sendLoginCode('ada@example.com', '1', latchkeyCodeMessage('1', 10))).rejects.toThrow();
  });
});
