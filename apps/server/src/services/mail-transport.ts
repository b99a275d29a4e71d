import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string | undefined;
  /** Sent as Message-ID, so a resend after a crash is recognisable as the same mail. */
  messageId?: string | undefined;
}

export interface MailTransport {
  readonly kind: 'smtp' | 'file';
  send(message: MailMessage): Promise<{ location?: string }>;
  close(): void;
}

/** SMTP when SMTP_URL is set; otherwise each message becomes an .eml file under DATA_DIR/outbox. */
export function createMailTransport(opts: {
  smtpUrl: string | undefined;
  from: string;
  outboxDir: string;
  timeoutMs?: number;
}): MailTransport {
  const timeout = opts.timeoutMs ?? 10_000;
  if (opts.smtpUrl) {
    const transporter: Transporter = nodemailer.createTransport({
      ...smtpOptionsFromUrl(opts.smtpUrl),
      // Connections are kept and reused: an alert mail does not wait for a new handshake.
      pool: true,
      maxConnections: 2,
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
    });
    return {
      kind: 'smtp',
      async send(m) {
        await transporter.sendMail({ from: opts.from, ...m });
        return {};
      },
      close: () => transporter.close(),
    };
  }
  const stream = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
  });
  return {
    kind: 'file',
    async send(m) {
      const info = await stream.sendMail({ from: opts.from, ...m });
      // Mail holds confirmation links: private to the server, like everything in DATA_DIR.
      await fs.mkdir(opts.outboxDir, { recursive: true, mode: 0o700 });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${info.messageId.replace(/[^A-Za-z0-9@._-]/g, '')}.eml`;
      const file = path.join(opts.outboxDir, name);
      await fs.writeFile(file, info.message as Buffer, { mode: 0o600 });
      return { location: file };
    },
    close: () => stream.close(),
  };
}

/** smtp://user:pass@host:port (STARTTLS when offered) or smtps://… (TLS from the start). */
export function smtpOptionsFromUrl(url: string) {
  const u = new URL(url);
  const secure = u.protocol === 'smtps:';
  return {
    host: u.hostname,
    port: u.port ? Number(u.port) : secure ? 465 : 587,
    secure,
    ...(u.username
      ? { auth: { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) } }
      : {}),
    tls: { rejectUnauthorized: u.searchParams.get('tls_reject_unauthorized') !== 'false' },
  };
}
