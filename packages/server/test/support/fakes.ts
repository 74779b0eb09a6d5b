import type { Clock } from '../../src/clock.ts';
import type { AccountNotice, Invitation, LoginCodeMessage, Mailer } from '../../src/mail/mailer.ts';

/** A clock that stands still until a test moves it. */
export class TestClock implements Clock {
  #now: number;
  constructor(start: Date = new Date()) {
    this.#now = start.getTime();
  }
  now(): Date {
    return new Date(this.#now);
  }
  advance(ms: number): void {
    this.#now += ms;
  }
}

/** Keeps every sign-in code and link "sent", in order; with `alsoTo`, hands each mail on to that mailer too. */
export class RecordingMailer implements Mailer {
  readonly #alsoTo: Mailer | undefined;
  constructor(alsoTo?: Mailer) {
    this.#alsoTo = alsoTo;
  }
  /** `message`: the mail's words when the sender gave them (a project's issuer does, in its pages' language). */
  readonly sent: Array<{ email: string; code: string; message?: LoginCodeMessage }> = [];
  /** While true, sending fails as an unreachable mail server would. */
  failing = false;
  async sendLoginCode(email: string, code: string, message?: LoginCodeMessage): Promise<void> {
    if (this.failing) throw new Error('connect ECONNREFUSED 127.0.0.1:25');
    this.sent.push({ email, code, ...(message ? { message } : {}) });
    if (message) await this.#alsoTo?.sendLoginCode(email, code, message);
  }
  lastCode(email: string): string {
    const found = this.sent.filter((m) => m.email === email).at(-1);
    if (!found) throw new Error(`no sign-in code was sent to ${email}`);
    return found.code;
  }
  count(email: string): number {
    return this.sent.filter((m) => m.email === email).length;
  }
  /** Every sign-in link "sent" (Email Link verification), in order. */
  readonly links: Array<{ email: string; link: string; message: LoginCodeMessage }> = [];
  async sendLoginLink(email: string, link: string, message: LoginCodeMessage): Promise<void> {
    if (this.failing) throw new Error('connect ECONNREFUSED 127.0.0.1:25');
    this.links.push({ email, link, message });
    await this.#alsoTo?.sendLoginLink(email, link, message);
  }
  /** Every invitation "sent" (issue 12), in order. */
  readonly invitations: Array<{ email: string; invitation: Invitation }> = [];
  async sendInvitation(email: string, invitation: Invitation): Promise<void> {
    if (this.failing) throw new Error('connect ECONNREFUSED 127.0.0.1:25');
    this.invitations.push({ email, invitation });
    await this.#alsoTo?.sendInvitation(email, invitation);
  }
  /** Every account notice "sent" (issue 37), in order. */
  readonly notices: Array<{ email: string; notice: AccountNotice }> = [];
  async sendNotice(email: string, notice: AccountNotice): Promise<void> {
    if (this.failing) throw new Error('connect ECONNREFUSED 127.0.0.1:25');
    this.notices.push({ email, notice });
    await this.#alsoTo?.sendNotice(email, notice);
  }
  lastLink(email: string): string {
    const found = this.links.filter((m) => m.email === email).at(-1);
    if (!found) throw new Error(`no sign-in link was sent to ${email}`);
    return found.link;
  }
}

export const MINUTE = 60 * 1000;
export const HOUR = 60 * MINUTE;
