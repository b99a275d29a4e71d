import fs from 'node:fs';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config/env.js';
import { DataDirError, octal } from './db/data-dir-lock.js';
import type { UsersRepository } from './repositories/users-repository.js';
import { hashPassword } from './services/auth-service.js';

/**
 * JWT_SECRET, or one generated once into DATA_DIR (mode 0600) and reused on every start. The
 * secret signs every sign-in: whoever can read it can sign tokens, whoever can write it can
 * choose them. So the file must be a regular file of its own (a symbolic link planted there is
 * refused, not followed), and one another account may write (group- or world-writable, or owned
 * by another account than the server's or root) is refused: the server does not start. One the
 * group or others may only read is made 0600 before it is used.
 */
export function resolveJwtSecret(config: Config): string {
  if (config.jwtSecret) return config.jwtSecret;
  const file = path.join(config.dataDir, 'jwt-secret');
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP')
      throw new DataDirError(
        `${file} is a symbolic link, so it is not trusted to sign sign-ins. Delete it (a new secret is made, and everyone signs in again), after checking who put it there.`,
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
          `${file} is not a regular file, so it is not trusted to sign sign-ins. Delete it (a new secret is made, and everyone signs in again).`,
        );
      if ((st.mode & 0o022) !== 0 || (uid !== undefined && st.uid !== uid && st.uid !== 0)) {
        throw new DataDirError(
          `${file} can be written by another account (mode ${octal(st.mode)}, owner uid ${st.uid}), so it is not trusted to sign sign-ins. Delete it (a new secret is made, and everyone signs in again) or make it the server's own with \`chmod 600\`, after checking that nobody changed it.`,
        );
      }
      if ((st.mode & 0o077) !== 0 && (uid === undefined || st.uid === uid))
        fs.fchmodSync(fd, 0o600);
      const existing = fs.readFileSync(fd, 'utf8').trim();
      if (Buffer.byteLength(existing) >= 32) return existing;
    } finally {
      fs.closeSync(fd);
    }
  }
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(48).toString('base64url');
  // A file too short to be a secret is replaced; a link or anything else that appeared since
  // the check above is not written through.
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
