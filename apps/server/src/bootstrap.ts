import fs from 'node:fs';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import webpush from 'web-push';
import type { Config } from './config/env.js';
import { DataDirError, octal } from './db/data-dir-lock.js';
import type { UsersRepository } from './repositories/users-repository.js';
import { hashPassword } from './services/auth-service.js';

/**
 * JWT_SECRET, or one generated once into DATA_DIR (mode 0600) and reused on every start. The
 * secret signs every sign-in: whoever can read it can sign tokens, whoever can write it can
 * choose them.
 */
export function resolveJwtSecret(config: Config): string {
  if (config.jwtSecret) return config.jwtSecret;
  return ownSecretFile(config.dataDir, 'jwt-secret', {
    purpose: 'sign sign-ins',
    anew: 'a new secret is made, and everyone signs in again',
    make: () => randomBytes(48).toString('base64url'),
    usable: (s) => Buffer.byteLength(s) >= 32,
  });
}

/**
 * The server's VAPID key pair (docs/push.md): VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or a pair
 * generated once into DATA_DIR/vapid-keys (mode 0600) and reused on every start. Every browser's
 * subscription is bound to the public key: a new pair means every browser subscribes again.
 */
export function resolveVapidKeys(config: Config): { publicKey: string; privateKey: string } {
  if (config.vapid) return config.vapid;
  const text = ownSecretFile(config.dataDir, 'vapid-keys', {
    purpose: 'sign pushes',
    anew: 'a new key pair is made, and every browser turns push notifications on again',
    make: () => {
      const keys = webpush.generateVAPIDKeys();
      return `${keys.publicKey} ${keys.privateKey}`;
    },
    usable: (s) => /^[A-Za-z0-9_-]{87} [A-Za-z0-9_-]{43}$/.test(s),
  });
  const [publicKey, privateKey] = text.split(' ') as [string, string];
  return { publicKey, privateKey };
}

/**
 * A secret the server keeps in DATA_DIR/`name`, generated with `make` when missing or not
 * `usable`. Whoever can write it could choose it, so the file must be a regular file of its
 * own (a symbolic link planted there is refused, not followed), and one another account may
 * write (group- or world-writable, or owned by another account than the server's or root) is
 * refused: the server does not start. One the group or others may only read is made 0600
 * before it is used.
 */
function ownSecretFile(
  dataDir: string,
  name: string,
  s: { purpose: string; anew: string; make: () => string; usable: (secret: string) => boolean },
): string {
  const file = path.join(dataDir, name);
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP')
      throw new DataDirError(
        `${file} is a symbolic link, so it is not trusted to ${s.purpose}. Delete it (${s.anew}), after checking who put it there.`,
      );
    if (code !== 'ENOENT') throw err;
    // Not there yet: generate below.
  }
  if (fd !== undefined) {
    try {
      const st = fs.fstatSync(fd);
      const uid = process.getuid?.();
      if (!st.isFile())
        throw new DataDirError(
          `${file} is not a regular file, so it is not trusted to ${s.purpose}. Delete it (${s.anew}).`,
        );
      if ((st.mode & 0o022) !== 0 || (uid !== undefined && st.uid !== uid && st.uid !== 0)) {
        throw new DataDirError(
          `${file} can be written by another account (mode ${octal(st.mode)}, owner uid ${st.uid}), so it is not trusted to ${s.purpose}. Delete it (${s.anew}) or make it the server's own with \`chmod 600\`, after checking that nobody changed it.`,
        );
      }
      if ((st.mode & 0o077) !== 0 && (uid === undefined || st.uid === uid))
        fs.fchmodSync(fd, 0o600);
      const existing = fs.readFileSync(fd, 'utf8').trim();
      if (s.usable(existing)) return existing;
    } finally {
      fs.closeSync(fd);
    }
  }
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const secret = s.make();
  // A file not holding a usable secret is replaced; a link or anything else that appeared
  // since the check above is not written through.
  if (fd !== undefined) fs.rmSync(file);
  fs.writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  return secret;
}

/**
 * On an empty database, creates the first admin: from ADMIN_EMAIL/ADMIN_PASSWORD, or with a
 * generated password written alone to DATA_DIR/initial-admin-password (0600). The password
 * never reaches the log; only where to find it does.
 */
export async function ensureFirstAdmin(
  config: Config,
  users: UsersRepository,
  log: FastifyBaseLogger,
): Promise<void> {
  if ((await users.count()) > 0) return;
  const generated = config.adminPassword === undefined;
  const password = config.adminPassword ?? randomBytes(18).toString('base64url');
  const now = new Date().toISOString();
  await users.insert({
    id: randomUUID(),
    email: config.adminEmail,
    name: 'Administrator',
    password_hash: await hashPassword(password),
    role: 'admin',
    email_verified_at: now,
    created_at: now,
    updated_at: now,
  });
  if (generated) {
    const file = path.join(config.dataDir, 'initial-admin-password');
    fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, `${password}\n`, { mode: 0o600 });
    // Also on stderr, so the hint shows at any LOG_LEVEL (even silent).
    process.stderr.write(
      `PawGuard: created admin ${config.adminEmail}; its password is in ${file}\n`,
    );
    log.info(
      { email: config.adminEmail, file },
      'created the first admin; the password is in the file named here',
    );
  } else {
    log.info(
      { email: config.adminEmail },
      'created the first admin from ADMIN_EMAIL and ADMIN_PASSWORD',
    );
  }
}
