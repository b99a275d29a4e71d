import type { Migration } from 'kysely/migration';
import * as m001 from './001-foundation.js';
import * as m002 from './002-waitlist.js';
import * as m003 from './003-devices.js';
import * as m004 from './004-readings.js';
import * as m005 from './005-alerts.js';
import * as m006 from './006-mail.js';
import * as m007 from './007-auto-assigned.js';
import * as m008 from './008-heat-risk.js';
import * as m009 from './009-alert-reading-times.js';
import * as m010 from './010-user-time-zone.js';
import * as m011 from './011-user-units.js';
import * as m012 from './012-alert-acknowledged.js';
import * as m013 from './013-readings-stored.js';
import * as m014 from './014-outbox-claims.js';
import * as m015 from './015-reading-rollups.js';
import * as m016 from './016-outbox-given-up.js';
import * as m017 from './017-activity.js';
import * as m018 from './018-device-uuid.js';
import * as m019 from './019-push.js';
import * as m020 from './020-escalation.js';
import * as m021 from './021-pack.js';
import * as m022 from './022-shared-keys.js';

/**
 * Every migration, in order. Listed here (not read from disk) so the bundled server carries
 * them. Later work appends its own: '002-…', '003-…'.
 */
export const migrations: Record<string, Migration> = {
  '001-foundation': m001,
  '002-waitlist': m002,
  '003-devices': m003,
  '004-readings': m004,
  '005-alerts': m005,
  '006-mail': m006,
  '007-auto-assigned': m007,
  '008-heat-risk': m008,
  '009-alert-reading-times': m009,
  '010-user-time-zone': m010,
  '011-user-units': m011,
  '012-alert-acknowledged': m012,
  '013-readings-stored': m013,
  '014-outbox-claims': m014,
  '015-reading-rollups': m015,
  '016-outbox-given-up': m016,
  '017-activity': m017,
  '018-device-uuid': m018,
  '019-push': m019,
  '020-escalation': m020,
  '021-pack': m021,
  '022-shared-keys': m022,
};
