import type { FastifyBaseLogger } from 'fastify';
import type { InsightsResponse } from '@pawguard/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { ActivityRepository } from '../repositories/activity-repository.js';
import type { OutboxRepository, OutgoingMail } from '../repositories/outbox-repository.js';
import { weekDue, type ActivityService } from './activity-service.js';
import type { Clock } from './clock.js';
import type { MailKick } from './commit-effects.js';
import { escapeHtml, headerSafe } from './mail-templates.js';

const EVERY_MS = 10 * 60_000;

/** The weekly insights mail of one owner: each dog's week, its flags with their note. */
export function weeklyInsightsMail(p: {
  userId: string;
  week: string;
  to: string;
  ownerName: string;
  dogs: (InsightsResponse & { dog_name: string })[];
  publicUrl: string;
}): OutgoingMail {
  const text: string[] = [`Hi ${p.ownerName},`, '', `Your pets' week on PawGuard:`, ''];
  let html = `<p>Hi ${escapeHtml(p.ownerName)},</p><p>Your pets' week on PawGuard:</p>`;
  for (const dog of p.dogs) {
    text.push(`${dog.dog_name} (${dog.from} to ${dog.to})`);
    html += `<h3>${escapeHtml(dog.dog_name)} <small>(${dog.from} to ${dog.to})</small></h3><ul>`;
    for (const i of dog.insights) {
      text.push(`- ${i.text}`);
      html += `<li>${escapeHtml(i.text)}</li>`;
    }
    html += '</ul>';
    for (const f of dog.flags) {
      text.push(`! ${f.text} ${f.note}`);
      html += `<p><strong>${escapeHtml(f.text)}</strong> ${escapeHtml(f.note)}</p>`;
    }
    text.push('');
  }
  const off = `You get this mail because weekly insights are on in your notification settings, where you can turn them off: ${p.publicUrl.replace(/\/$/, '')}/notifications`;
  text.push(off, '');
  html += `<p><small>${escapeHtml(off)}</small></p>`;
  return {
    idempotencyKey: `weekly-insights:${p.userId}:${p.week}`,
    to: headerSafe(p.to),
    subject: headerSafe(
      p.dogs.length === 1
        ? `${p.dogs[0]!.dog_name}'s week on PawGuard`
        : "Your pets' week on PawGuard",
    ),
    text: text.join('\n'),
    html,
  };
}

/**
 * Queues the weekly insights mail (off unless the owner turned it on) through the outbox, once
 * per owner and week: the outbox's idempotency key (owner and Monday) and the week remembered
 * in the same transaction make a second pass, or a second instance, queue nothing more.
 */
export class InsightsMail {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | null = null;

  constructor(
    private readonly d: {
      db: Kysely<Database>;
      activity: ActivityRepository;
      service: ActivityService;
      outbox: OutboxRepository;
      clock: Clock;
      log: FastifyBaseLogger;
      publicUrl: string;
      /** Woken once a pass has queued mail. */
      mailWorker: MailKick;
    },
  ) {}

  /** Queues the mails due now; answers how many. */
  async run(): Promise<number> {
    if (this.running) return this.running;
    this.running = this.queueDue().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async queueDue(): Promise<number> {
    const now = this.d.clock.now();
    let queued = 0;
    for (const owner of await this.d.activity.weeklyRecipients()) {
      const week = weekDue(now.getTime(), owner.time_zone ?? 'UTC');
      if (week === null || owner.last_week === week) continue;
      // One owner's failure (a dog whose insights cannot be read) is logged and tried again on
      // the next pass; it never holds up the owners after it.
      try {
        if (await this.queueFor(owner, week, now)) queued++;
      } catch (err) {
        this.d.log.error({ err, user: owner.id }, 'weekly insights mail not queued for an owner');
      }
    }
    if (queued) this.d.mailWorker.kick();
    return queued;
  }

  /** Queues one owner's mail for `week` (none when no dog has insights); answers if it did. */
  private async queueFor(
    owner: Awaited<ReturnType<ActivityRepository['weeklyRecipients']>>[number],
    week: string,
    now: Date,
  ): Promise<boolean> {
    const dogs: (InsightsResponse & { dog_name: string })[] = [];
    for (const { id } of await this.d.activity.dogsOf(owner.id)) {
      const insights = await this.d.service.insightsFor(id);
      if (insights) dogs.push(insights);
    }
    await this.d.db.transaction().execute(async (trx) => {
      if (dogs.length)
        await this.d.outbox.enqueue(
          weeklyInsightsMail({
            userId: owner.id,
            week,
            to: owner.email,
            ownerName: owner.name,
            dogs,
            publicUrl: this.d.publicUrl,
          }),
          now.toISOString(),
          trx,
        );
      await this.d.activity.markWeekMailed(owner.id, week, trx);
    });
    return dogs.length > 0;
  }

  start(): void {
    const run = () =>
      void this.run().catch((err: unknown) =>
        this.d.log.error({ err }, 'weekly insights mail failed'),
      );
    this.timer = setInterval(run, EVERY_MS);
    this.timer.unref();
    run();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }
}
