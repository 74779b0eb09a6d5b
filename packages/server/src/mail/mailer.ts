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
    async sendInvitation(email, invitation) {
      write(`Invitation for ${email}: ${invitation.projectName}, sign in at ${invitation.consoleUrl}`);
    },
  };
}

export function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async sendLoginCode(email, _code, message) {
      await transport.sendMail({ from, to: email, subject: message.subject, text: message.text, headers: { 'Content-Language': message.language } });
    },
    async sendLoginLink(email, _link, message) {
      await transport.sendMail({ from, to: email, subject: message.subject, text: message.text, headers: { 'Content-Language': message.language } });
    },
    async sendInvitation(email, invitation) {
      const message = invitationMessage(invitation);
      await transport.sendMail({ from, to: email, subject: message.subject, text: message.text, headers: { 'Content-Language': 'en' } });
    },
  };
}
