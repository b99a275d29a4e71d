import {
  celsiusToFahrenheit,
  heatIndexQuotable,
  EXTREME_HEAT,
  formatOneDecimal,
  formatTemperature,
  formatTemperatureF,
  formatZonedTime,
  type Notification,
} from '@pawguard/shared';
import { HEAT_FIRST_AID } from '@pawguard/shared/content';
import type { OutgoingMail } from '../repositories/outbox-repository.js';
import type { AlertNotice } from './alert-notices.js';
import { escapeHtml, headerSafe } from './mail-templates.js';

/** Links in mail: the app's own pages under PUBLIC_URL. */
export interface MailLinks {
  publicUrl: string;
  /** A heat alert's signed "Acknowledge" link, for the person the mail goes to. */
  acknowledgeUrl?: string;
}

/** The one-tap acknowledgement's words: the reader tells PawGuard they are on it. */
const ACKNOWLEDGE_WORDS = "Acknowledge: I'm on it";

/** The collar's history; the Devices screen for a sample alert that no collar sent. */
const devicePage = (l: MailLinks, deviceUuid: string) =>
  deviceUuid
    ? `${l.publicUrl}/devices/${encodeURIComponent(deviceUuid)}/history`
    : `${l.publicUrl}/devices`;
const emergencyPage = (l: MailLinks) => `${l.publicUrl}/emergency`;
const settingsPage = (l: MailLinks) => `${l.publicUrl}/notifications`;

const SUBJECT_TAG = {
  WARNING: 'WARNING',
  DANGER: 'DANGER',
  CRITICAL: 'CRITICAL',
} as const;

/**
 * The level this mail reports: the one the notification opened or escalated to. The alert
 * itself may stand higher already (one batch can open and escalate it): each mail tells its
 * own step.
 */
const levelOf = (notice: AlertNotice) => notice.notification.level;

/** The words a lock screen shows first: the level, the pet, the temperature. */
function subjectOf(notice: AlertNotice): string {
  const { alert, reading } = notice;
  const level = levelOf(notice);
  const name = alert.dog_name ?? alert.device_name ?? alert.device_id;
  if (alert.type === 'heat' && level && reading) {
    const verb = {
      opened: 'heat alert',
      escalated: 'heat alert raised',
      unacknowledged: 'heat alert NOT YET ACKNOWLEDGED',
    }[notice.notification.kind];
    return headerSafe(
      `[${SUBJECT_TAG[level]}] ${name}: ${verb} at ${formatTemperature(reading.temperature, notice.owner.temperatureUnit)}`,
    );
  }
  if (alert.type === 'offline')
    return headerSafe(`[OFFLINE] ${name}: the collar stopped reporting`);
  return headerSafe(`[LOW BATTERY] ${name}: collar at ${alert.battery_level ?? '?'}%`);
}

/** The lines of facts, as label and value (escaped later for HTML). */
function factsOf(notice: AlertNotice): [string, string][] {
  const { alert, reading } = notice;
  const zone = notice.owner.timeZone;
  // Both units always, the owner's first (DESIGN §3: every alert mail names °F and °C).
  const unit = notice.owner.temperatureUnit;
  const level = levelOf(notice);
  const facts: [string, string][] = [];
  if (alert.dog_name) facts.push(['Pet', alert.dog_name]);
  facts.push(['Collar', `${alert.device_name ?? 'Collar'} (${alert.device_id})`]);
  if (alert.type === 'heat' && level) facts.push(['Level', level]);
  // Why PawGuard is worried, in one line (the heat-risk model's reasons).
  if (alert.type === 'heat' && alert.reasons.length) facts.push(['Why', alert.reasons.join('; ')]);
  if (reading) {
    if (alert.type === 'heat') {
      facts.push(['Temperature', formatTemperature(reading.temperature, unit)]);
      facts.push(['Humidity', `${formatOneDecimal(reading.humidity)}%`]);
      // A number only where the heat-index formula holds; beyond it, plain words.
      facts.push([
        'Heat index',
        heatIndexQuotable(celsiusToFahrenheit(reading.temperature), reading.humidity)
          ? formatTemperatureF(reading.heat_index_f, unit)
          : EXTREME_HEAT,
      ]);
    }
    if (reading.battery !== null) facts.push(['Battery', `${reading.battery}%`]);
    facts.push(['When', formatZonedTime(reading.timestamp, zone)]);
  } else {
    facts.push(['When', formatZonedTime(alert.opened_at, zone)]);
    if (alert.reading_at) facts.push(['Last reading', formatZonedTime(alert.reading_at, zone)]);
  }
  return facts;
}

/** What to do now: the first aid that fits the level, in the app's own words. */
function stepsOf(notice: AlertNotice): readonly string[] {
  const level = levelOf(notice);
  return notice.alert.type === 'heat' && level ? HEAT_FIRST_AID[level] : [];
}

function actionOf(notice: AlertNotice): string {
  const { alert } = notice;
  if (alert.type === 'heat')
    return levelOf(notice) === 'WARNING'
      ? 'It is getting hot for your dog. Move them to shade, offer water and watch for the signs below.'
      : 'Act now: start cooling your dog and call your vet or an emergency clinic.';
  if (alert.type === 'offline')
    return 'PawGuard cannot watch your dog while the collar is silent. Check that it is charged, switched on and within reach of its connection.';
  return 'Charge the collar soon: when its battery runs out, PawGuard can no longer warn you about heat.';
}

/**
 * One alert mail (an opening or an escalation): names the pet and the collar, the level,
 * °F and °C, humidity and heat index, when; what to do now; links to the device's page and
 * the emergency vet finder. Plain text and HTML; every piece of user text escaped, and the
 * subject kept to one line.
 */
export function alertMail(
  notice: AlertNotice,
  links: MailLinks,
  idempotencyKey: string,
): OutgoingMail {
  const { alert, owner } = notice;
  const facts = factsOf(notice);
  const steps = stepsOf(notice);
  const action = actionOf(notice);
  const device = devicePage(links, alert.device);
  const deviceLabel = alert.device ? "See the collar's readings" : 'See your collars';
  const emergency = emergencyPage(links);
  const text = [
    `Hi ${owner.name},`,
    '',
    notice.notification.title,
    '',
    action,
    '',
    ...facts.map(([k, v]) => `${k}: ${v}`),
    ...(steps.length ? ['', 'What to do now:', ...steps.map((s, i) => `${i + 1}. ${s}`)] : []),
    '',
    ...(links.acknowledgeUrl ? [`${ACKNOWLEDGE_WORDS}: ${links.acknowledgeUrl}`] : []),
    `${deviceLabel}: ${device}`,
    `Find an emergency vet: ${emergency}`,
    '',
    `You get this e-mail because alert e-mails are on in your notification settings: ${settingsPage(links)}`,
    '',
  ].join('\n');
  const e = escapeHtml;
  const html = [
    `<p>Hi ${e(owner.name)},</p>`,
    `<h1 style="font-size:20px">${e(notice.notification.title)}</h1>`,
    `<p><strong>${e(action)}</strong></p>`,
    `<table cellpadding="4">${facts.map(([k, v]) => `<tr><th align="left">${e(k)}</th><td>${e(v)}</td></tr>`).join('')}</table>`,
    steps.length
      ? `<h2 style="font-size:16px">What to do now</h2><ol>${steps.map((s) => `<li>${e(s)}</li>`).join('')}</ol>`
      : '',
    links.acknowledgeUrl
      ? `<p><a href="${e(links.acknowledgeUrl)}" style="display:inline-block;padding:10px 16px;background:#1d4ed8;color:#fff;border-radius:6px;text-decoration:none"><strong>${e(ACKNOWLEDGE_WORDS)}</strong></a></p>`
      : '',
    `<p><a href="${e(device)}">${e(deviceLabel)}</a> · <a href="${e(emergency)}">Find an emergency vet</a></p>`,
    `<p style="color:#666;font-size:12px">You get this e-mail because alert e-mails are on in your <a href="${e(settingsPage(links))}">notification settings</a>.</p>`,
  ].join('\n');
  return { idempotencyKey, to: owner.email, subject: subjectOf(notice), text, html };
}

/**
 * A digest: the window's notifications, oldest first, each with its time and link. It counts
 * alerts, not notifications: an alert opened and then raised is one alert, listed twice.
 */
export function digestMail(p: {
  owner: { email: string; name: string; timeZone: string | null };
  frequency: 'hourly' | 'daily' | 'held';
  windowEnd: string;
  notifications: Notification[];
  links: MailLinks;
  idempotencyKey: string;
}): OutgoingMail {
  const n = new Set(p.notifications.map((x) => x.alert_id)).size;
  const what = n === 1 ? '1 alert' : `${n} alerts`;
  const heading =
    p.frequency === 'held'
      ? `${what} held back: you had many alert e-mails in the last hour`
      : `Your ${p.frequency} PawGuard summary: ${what}`;
  const e = escapeHtml;
  const lines = p.notifications.map(
    (x) =>
      `- ${formatZonedTime(x.created_at, p.owner.timeZone)}  ${x.title}\n  ${x.message}\n  ${devicePage(p.links, x.device)}`,
  );
  const text = [
    `Hi ${p.owner.name},`,
    '',
    heading,
    '',
    ...lines,
    '',
    `Find an emergency vet: ${emergencyPage(p.links)}`,
    `Change how often PawGuard e-mails you: ${settingsPage(p.links)}`,
    '',
  ].join('\n');
  const html = [
    `<p>Hi ${e(p.owner.name)},</p>`,
    `<h1 style="font-size:18px">${e(heading)}</h1>`,
    `<ul>${p.notifications.map((x) => `<li><strong>${e(x.title)}</strong> <span style="color:#666">${e(formatZonedTime(x.created_at, p.owner.timeZone))}</span><br>${e(x.message)}<br><a href="${e(devicePage(p.links, x.device))}">See the collar</a></li>`).join('')}</ul>`,
    `<p><a href="${e(emergencyPage(p.links))}">Find an emergency vet</a> · <a href="${e(settingsPage(p.links))}">Notification settings</a></p>`,
  ].join('\n');
  return {
    idempotencyKey: p.idempotencyKey,
    to: p.owner.email,
    subject: headerSafe(
      p.frequency === 'held'
        ? `PawGuard: ${what} held back`
        : `PawGuard ${p.frequency} summary: ${what}`,
    ),
    text,
    html,
  };
}
