import nodemailer from 'nodemailer';

/** What leaves the machine as mail; tests swap it for one that records. */
export interface Mailer {
  sendLoginCode(email: string, code: string): Promise<void>;
}

/**
 * No SMTP_URL: the code goes to the server's output as exactly one line (README quick start; the
 * end-to-end suite reads it with /Sign-in code for (\S+): (\d{6})/).
 */
export function consoleMailer(write: (line: string) => void = (line) => process.stdout.write(`${line}\n`)): Mailer {
  return {
    async sendLoginCode(email, code) {
      write(`Sign-in code for ${email}: ${code}`);
    },
  };
}

export function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async sendLoginCode(email, code) {
      await transport.sendMail({
        from,
        to: email,
        subject: `Your Latchkey sign-in code: ${code}`,
        text: `Your sign-in code is ${code}.\n\nIt expires in 10 minutes and works once. If you did not try to sign in to Latchkey, ignore this mail.\n`,
      });
    },
  };
}
