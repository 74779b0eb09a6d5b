import type { DestinationStream } from 'pino';
import { announcements } from '../log.ts';
import nodemailer from 'nodemailer';

/** A sign-in code's mail in the sign-in page's language (its words come from the pages that sent it: oidc/pages/texts.ts). */
export interface LoginCodeMessage {
  /** A BCP 47 language tag (Content-Language). */
  language: string;
  subject: string;
  text: string;
}

/** What leaves the machine as mail; tests swap it for one that records. */
export interface Mailer {
  /** `message`: the mail's words, in the language of the pages that asked for the code. */
  sendLoginCode(email: string, code: string, message: LoginCodeMessage): Promise<void>;
  /** A one-time sign-in link (Email Link verification at a project's issuer, docs/decisions/0018); `message` carries its words. */
  sendLoginLink(email: string, link: string, message: LoginCodeMessage): Promise<void>;
  /** Issue 12: an account was added for `email` before it ever signed in; the mail says where to sign in. */
  sendInvitation(email: string, invitation: Invitation): Promise<void>;
  /** Issue 37: a notice to an end user about their account (a recovery code used, an email sign-in, docs/decisions/0051). */
  sendNotice(email: string, notice: AccountNotice): Promise<void>;
}

/** A notice's words (in the project's pages' language), what it is about, and the link it carries, if any. */
export interface AccountNotice extends LoginCodeMessage {
  /** `recovery_code_used`, `email_sign_in`: the one line of the server's output names it. */
  kind: string;
  /** "This wasn't me", where the notice has it. */
  link?: string;
}

/** What an invitation says: the console's address, the project, who added the person. */
export interface Invitation {
  consoleUrl: string;
  projectName: string;
  invitedBy: string | null;
}

/** The invitation's words (the console is English). */
export function invitationMessage(invitation: Invitation): { subject: string; text: string } {
  const by = invitation.invitedBy ? `${invitation.invitedBy} added you` : 'You were added';
  return {
    subject: `You have been added to ${invitation.projectName} on Latchkey`,
    text: `${by} to the project ${invitation.projectName} on Latchkey.\n\nSign in with this email address at ${invitation.consoleUrl} — no password: a one-time code is mailed to you.\n`,
  };
}

/** One mail as it leaves: its words, and the one line the output gets instead when there is no SMTP. */
export interface OutgoingMail {
  to: string;
  /** A BCP 47 language tag (Content-Language). */
  language: string;
  subject: string;
  text: string;
  /** What a person reading the server's output needs of it (the code, the link). */
  line: string;
}

/** Where mail goes: an SMTP server, or the server's output. */
export type MailTransport = (mail: OutgoingMail) => Promise<void>;

/** The one mailer: every mail is made here and handed to the transport. */
export function createMailer(transport: MailTransport): Mailer {
  return {
    sendLoginCode: (email, code, message) => transport({ to: email, ...message, line: `Sign-in code for ${email}: ${code}` }),
    sendLoginLink: (email, link, message) => transport({ to: email, ...message, line: `Sign-in link for ${email}: ${link}` }),
    sendNotice: (email, { kind, link, ...message }) =>
      transport({ to: email, ...message, line: `Account notice for ${email}: ${kind}${link ? ` ${link}` : ''}` }),
    sendInvitation: (email, invitation) =>
      transport({
        to: email,
        language: 'en',
        ...invitationMessage(invitation),
        line: `Invitation for ${email}: ${invitation.projectName}, sign in at ${invitation.consoleUrl}`,
      }),
  };
}

/**
 * No SMTP_URL: each mail goes to the server's output as exactly one line (README quick start; the
 * end-to-end suite reads a code with /Sign-in code for (\S+): (\d{6})/): `Sign-in code for {email}:
 * {code}`, `Sign-in link for {email}: {link}`, `Invitation for {email}: …`.
 */
/**
 * Without SMTP: each mail is a line of the server's output (a JSON line, its words in `msg`), the
 * one line that carries a sign-in code (README "Configuration", docs/decisions/0033).
 */
export function consoleMailer(write: (line: string) => void = lineWriter()): Mailer {
  return createMailer(async (mail) => write(mail.line));
}

/** The console mailer's line writer: an announcement (written whatever LOG_LEVEL is), to `stream` or standard output. */
export function lineWriter(stream?: DestinationStream): (line: string) => void {
  const out = announcements(stream);
  return (line) => out.info(line);
}

export function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return createMailer(async (mail) => {
    await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, headers: { 'Content-Language': mail.language } });
  });
}
