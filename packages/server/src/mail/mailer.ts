import nodemailer from 'nodemailer';
import { CODE_TTL_MS } from '../idp/login-codes.service.ts';
import { PAGE_TEXTS } from '../idp/page-texts.ts';

/** A sign-in code's mail in the sign-in page's language (idp/page-texts.ts). */
export interface LoginCodeMessage {
  /** A BCP 47 language tag (Content-Language). */
  language: string;
  subject: string;
  text: string;
}

/** The console's own code mail (its sign-in pages are English). */
export function latchkeyCodeMessage(code: string, minutes: number): LoginCodeMessage {
  return { language: 'en', subject: PAGE_TEXTS.en.mailSubject('Latchkey', code), text: PAGE_TEXTS.en.mailText('Latchkey', code, minutes) };
}

/** What leaves the machine as mail; tests swap it for one that records. */
export interface Mailer {
  /** `message`: the mail's words; without it, the console's own (latchkeyCodeMessage). */
  sendLoginCode(email: string, code: string, message?: LoginCodeMessage): Promise<void>;
  /** A one-time sign-in link (Email Link verification at a project's issuer, docs/decisions/0018); `message` carries its words. */
  sendLoginLink(email: string, link: string, message: LoginCodeMessage): Promise<void>;
}

/**
 * No SMTP_URL: the code goes to the server's output as exactly one line (README quick start; the
 * end-to-end suite reads it with /Sign-in code for (\S+): (\d{6})/); a sign-in link likewise, as
 * `Sign-in link for {email}: {link}`.
 */
export function consoleMailer(write: (line: string) => void = (line) => process.stdout.write(`${line}\n`)): Mailer {
  return {
    async sendLoginCode(email, code) {
      write(`Sign-in code for ${email}: ${code}`);
    },
    async sendLoginLink(email, link) {
      write(`Sign-in link for ${email}: ${link}`);
    },
  };
}

export function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async sendLoginCode(email, code, message = latchkeyCodeMessage(code, CODE_TTL_MS / 60_000)) {
      await transport.sendMail({ from, to: email, subject: message.subject, text: message.text, headers: { 'Content-Language': message.language } });
    },
    async sendLoginLink(email, _link, message) {
      await transport.sendMail({ from, to: email, subject: message.subject, text: message.text, headers: { 'Content-Language': message.language } });
    },
  };
}
