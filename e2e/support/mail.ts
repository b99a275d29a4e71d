import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Where run.mjs's loopback SMTP server writes each message the app sends. */
const mailDir = () => {
  const dir = process.env.PAWGUARD_MAIL_DIR;
  if (!dir)
    throw new Error('PAWGUARD_MAIL_DIR is not set: run the suite through `npm run test:e2e`.');
  return dir;
};

export interface ReceivedMail {
  to: string;
  subject: string;
  raw: string;
}

/** An encoded-word header value (RFC 2047), as a mail client shows it. */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_, enc: string, text: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9A-Fa-f]{2})/g, (__, h: string) =>
                String.fromCharCode(parseInt(h, 16)),
              ),
            'latin1',
          ).toString('utf8'),
    );
}

/** Every mail the SMTP server has accepted for this address so far, oldest first. */
export function mailsTo(address: string): ReceivedMail[] {
  const dir = mailDir();
  return readdirSync(dir)
    .sort()
    .map((file) => readFileSync(path.join(dir, file), 'utf8'))
    .map((raw) => {
      const head = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
      const header = (name: string) =>
        head
          .split(/\r?\n/)
          .find((l) => l.toLowerCase().startsWith(`${name}:`))
          ?.slice(name.length + 1)
          .trim() ?? '';
      return { to: header('x-envelope-to'), subject: decodeHeader(header('subject')), raw };
    })
    .filter((m) => m.to.split(',').includes(address));
}

/** A mail's text as a mail client shows it (quoted-printable undone). */
export const bodyOf = (raw: string): string =>
  Buffer.from(
    raw
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
    'latin1',
  ).toString('utf8');
