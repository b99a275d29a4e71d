import { hash as digest, randomBytes, randomUUID } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import type { Kysely } from 'kysely';
import { MESSAGES, type LoginInput, type RegisterInput, type User } from '@pawguard/shared';
import type { Database } from '../db/schema.js';
import { isUniqueViolation } from '../db/index.js';
import type { UsersRepository, UserRow } from '../repositories/users-repository.js';
import type { SessionsRepository } from '../repositories/sessions-repository.js';
import type { EmailConfirmationsRepository } from '../repositories/email-confirmations-repository.js';
import type { OutboxRepository } from '../repositories/outbox-repository.js';
import { TOKEN_LIFETIME_SECONDS, type TokenService } from './token-service.js';
import type { LoginThrottle } from './login-throttle.js';
import type { Clock } from './clock.js';
import { BadRequestError, ConflictError, UnauthorizedError } from './errors.js';
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from './common-passwords.js';
import { confirmationMail } from './mail-templates.js';
import type { MailKick } from './commit-effects.js';

const CONFIRMATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/** argon2id, m=19456 KiB, t=2, p=1 (OWASP's floor); @node-rs/argon2's defaults, stated. */
export const ARGON2_OPTIONS = {
  algorithm: 2,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;

export const hashPassword = (password: string) => hash(password, ARGON2_OPTIONS);

export const toUser = (
  row: Pick<UserRow, 'id' | 'name' | 'email' | 'role' | 'created_at'> &
    Partial<Pick<UserRow, 'time_zone' | 'temperature_unit' | 'weight_unit'>>,
): User => ({
  id: row.id,
  name: row.name,
  email: row.email,
  role: row.role,
  time_zone: row.time_zone ?? null,
  temperature_unit: row.temperature_unit ?? null,
  weight_unit: row.weight_unit ?? null,
  created_at: row.created_at,
});

const sha256 = (s: string) => digest('sha256', s, 'hex');

export interface AuthDeps {
  db: Kysely<Database>;
  users: UsersRepository;
  sessions: SessionsRepository;
  confirmations: EmailConfirmationsRepository;
  outbox: OutboxRepository;
  tokens: TokenService;
  /** Failed logins per account and address, and per account (docs/decisions/0006). */
  throttle: LoginThrottle;
  clock: Clock;
  publicUrl: string;
  /** The outbox worker, woken after the confirmation mail is queued. */
  mailWorker: MailKick;
}

export class AuthService {
  /** Verified against when the e-mail is unknown, so both failures cost the same. */
  private dummyHash: Promise<string> | undefined;

  constructor(private readonly d: AuthDeps) {}

  async register(input: RegisterInput): Promise<{ token: string; user: User }> {
    // Before hashing: a refused password costs no hash (AUTH-3).
    if (isCommonPassword(input.password)) throw new BadRequestError(COMMON_PASSWORD_MESSAGE);
    const now = this.d.clock.now();
    const iso = now.toISOString();
    const passwordHash = await hashPassword(input.password);
    const row: UserRow = {
      id: randomUUID(),
      email: input.email.toLowerCase(),
      name: input.name,
      password_hash: passwordHash,
      role: 'user',
      email_verified_at: null,
      time_zone: input.time_zone ?? null,
      temperature_unit: input.temperature_unit ?? null,
      weight_unit: input.weight_unit ?? null,
      created_at: iso,
      updated_at: iso,
    };
    const confirmToken = randomBytes(32).toString('base64url');
    const sessionId = randomUUID();
    try {
      await this.d.db.transaction().execute(async (trx) => {
        await this.d.users.insert(row, trx);
        await this.d.confirmations.insert(
          {
            token_hash: sha256(confirmToken),
            user_id: row.id,
            expires_at: new Date(now.getTime() + CONFIRMATION_LIFETIME_MS).toISOString(),
            used_at: null,
          },
          trx,
        );
        await this.d.outbox.enqueue(
          confirmationMail({
            userId: row.id,
            to: row.email,
            name: row.name,
            link: `${this.d.publicUrl}/api/auth/confirm/${confirmToken}`,
          }),
          iso,
          trx,
        );
        await this.d.sessions.insert(this.newSession(sessionId, row.id, now), trx);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictError(MESSAGES.emailTaken);
      throw err;
    }
    this.d.mailWorker.kick();
    const token = await this.d.tokens.sign({ userId: row.id, sessionId }, now.getTime());
    return { token, user: toUser(row) };
  }

  /** `address` is the client's IP address (the socket's, or a trusted proxy's report of it). */
  async login(input: LoginInput, address: string): Promise<{ token: string; user: User }> {
    const now = this.d.clock.now();
    const key = input.email.trim().toLowerCase();
    // Counted before anything is awaited: concurrent guesses cannot outrun the count.
    this.d.throttle.begin(key, address, now.getTime());

    const row = await this.d.users.findByEmail(key);
    const ok = row
      ? await verify(row.password_hash, input.password)
      : (await verify(await this.getDummyHash(), input.password), false);
    if (!row || !ok) throw new UnauthorizedError(MESSAGES.invalidCredentials);
    this.d.throttle.succeeded(key, address, now.getTime());
    const sessionId = randomUUID();
    await this.d.sessions.insert(this.newSession(sessionId, row.id, now));
    const token = await this.d.tokens.sign({ userId: row.id, sessionId }, now.getTime());
    return { token, user: toUser(row) };
  }

  async logout(sessionId: string): Promise<void> {
    await this.d.sessions.revoke(sessionId, this.d.clock.now().toISOString());
  }

  /** The signed-in user for a token, or null: checks signature, expiry and the session. */
  async authenticate(token: string): Promise<{ user: User; sessionId: string } | null> {
    const claims = await this.d.tokens.verify(token);
    if (!claims) return null;
    const row = await this.d.sessions.findActiveUser(
      claims.sessionId,
      claims.userId,
      this.d.clock.now().toISOString(),
    );
    return row ? { user: toUser(row), sessionId: row.session_id } : null;
  }

  /** True when the link was valid (unused, unexpired); the address is then confirmed. */
  async confirmEmail(token: string): Promise<boolean> {
    const now = this.d.clock.now().toISOString();
    // One transaction: a link is never spent without the address being confirmed.
    return this.d.db.transaction().execute(async (trx) => {
      const userId = await this.d.confirmations.consume(sha256(token), now, trx);
      if (!userId) return false;
      await this.d.users.markEmailVerified(userId, now, trx);
      return true;
    });
  }

  private newSession(id: string, userId: string, now: Date) {
    return {
      id,
      user_id: userId,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + TOKEN_LIFETIME_SECONDS * 1000).toISOString(),
      revoked_at: null,
    };
  }

  private getDummyHash(): Promise<string> {
    this.dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
    return this.dummyHash;
  }
}
