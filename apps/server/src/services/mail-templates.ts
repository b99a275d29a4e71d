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
