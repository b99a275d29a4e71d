import type { OutgoingMail } from '../repositories/outbox-repository.js';

/** User text in mail is escaped: a pet or person named `<script>` stays text. */
export function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/** Headers never carry user text with line breaks (no header injection). */
export function headerSafe(s: string): string {
  return s.replace(/[\r\n]+/g, ' ').trim();
}

export function confirmationMail(p: {
  userId: string;
  to: string;
  name: string;
  link: string;
}): OutgoingMail {
  const name = p.name;
  return {
    idempotencyKey: `confirm-${p.userId}`,
    to: p.to,
    subject: 'Confirm your PawGuard account',
    text: `Hi ${name},\n\nWelcome to PawGuard. Please confirm your e-mail address by opening this link:\n\n${p.link}\n\nIf you did not create an account, you can ignore this message.\n`,
    html: `<p>Hi ${escapeHtml(name)},</p><p>Welcome to PawGuard. Please confirm your e-mail address:</p><p><a href="${escapeHtml(p.link)}">Confirm my e-mail</a></p><p>If you did not create an account, you can ignore this message.</p>`,
  };
}

/**
 * An invitation to a pet's pack (docs/pack.md): who invites, to which pet, as what and until
 * when, and the single-use link (a week) that accepts it with an account of this address.
 */
export function packInvitationMail(p: {
  invitationId: string;
  to: string;
  inviter: string;
  dogName: string;
  role: string;
  until: string | null;
  link: string;
  expiresDays: number;
}): OutgoingMail {
  const e = escapeHtml;
  const until = p.until ? ` until ${p.until.slice(0, 10)}` : '';
  const line = `${p.inviter} invites you to ${p.dogName}'s pack on PawGuard as ${p.role.toLowerCase()}${until}.`;
  const what =
    p.role === 'Caregiver'
      ? `You will see ${p.dogName}'s live heat readings and get their heat alerts, and you can acknowledge and resolve them.`
      : `You will see and manage ${p.dogName} and their collars, and get their heat alerts.`;
  return {
    idempotencyKey: `pack-invitation-${p.invitationId}`,
    to: p.to,
    subject: headerSafe(`${p.inviter} invites you to ${p.dogName}'s pack on PawGuard`),
    text: `Hello,\n\n${line}\n${what}\n\nAccept the invitation (you will sign in, or create an account with this e-mail address):\n\n${p.link}\n\nThe link works once, for ${p.expiresDays} days. If you did not expect this, you can ignore this message.\n`,
    html: `<p>Hello,</p><p>${e(line)}</p><p>${e(what)}</p><p><a href="${e(p.link)}">Accept the invitation</a></p><p>You will sign in, or create an account with this e-mail address. The link works once, for ${p.expiresDays} days. If you did not expect this, you can ignore this message.</p>`,
  };
}
