/**
 * A phone number as a tel: link takes it: '(800) 555-0142' → '+18005550142'. A number without
 * a country code is taken as North American when it has ten digits (the server's
 * SUPPORT_PHONE and its documented sample are written that way).
 */
export function telHref(phone: string): string {
  const digits = phone.replace(/[^\d]/g, '');
  if (phone.trim().startsWith('+')) return `+${digits}`;
  return digits.length === 10 ? `+1${digits}` : digits;
}
