import { z } from 'zod';

/** What the web app needs from the server's settings before anyone signs in. */
export const publicConfigResponseSchema = z.object({
  support_email: z.string(),
  /** As people read it, e.g. '(800) 555-0142'. */
  support_phone: z.string(),
  /** The same number for a tel: link, e.g. '+18005550142'. */
  support_phone_tel: z.string(),
  /** The port collars publish readings on over MQTT (MQTT_PORT), or null when MQTT is off. */
  mqtt_port: z.number().int().nullable(),
});
export type PublicConfigResponse = z.infer<typeof publicConfigResponseSchema>;
