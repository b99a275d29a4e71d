import { DEFAULT_PREFERENCES, type Preferences, type PreferencesInput } from '@pawguard/shared';
import { fromBool, toBool } from '../db/schema.js';
import type { PreferencesRepository } from '../repositories/preferences-repository.js';
import type { Clock } from './clock.js';

export class PreferencesService {
  constructor(
    private readonly prefs: PreferencesRepository,
    private readonly clock: Clock,
  ) {}

  /** The stored preferences, or the defaults (on, 85 °F, 105 °F, immediate) when none are stored. */
  async get(userId: string): Promise<Preferences> {
    const row = await this.prefs.find(userId);
    if (!row) return { ...DEFAULT_PREFERENCES };
    return {
      email_notifications_enabled: toBool(row.email_notifications_enabled),
      temperature_threshold: row.temperature_threshold,
      critical_temperature_threshold: row.critical_temperature_threshold,
      email_frequency: row.email_frequency,
    };
  }

  async put(userId: string, input: PreferencesInput): Promise<Preferences> {
    await this.prefs.upsert({
      user_id: userId,
      ...input,
      email_notifications_enabled: fromBool(input.email_notifications_enabled),
      updated_at: this.clock.now().toISOString(),
    });
    return { ...input };
  }
}
