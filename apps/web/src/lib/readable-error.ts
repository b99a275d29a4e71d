/**
 * The server names a field of a list by its path ('devices.0.device_address must be a MAC
 * address…'). People read rows and words: 'Row 1: the MAC address must look like
 * AA:BB:CC:DD:EE:FF'. Other messages pass through unchanged.
 */
const FIELDS: Record<string, { name: string; rule?: RegExp; says?: string }> = {
  device_address: {
    name: 'the MAC address',
    rule: /MAC address/,
    says: 'must look like AA:BB:CC:DD:EE:FF',
  },
  device_id: { name: 'the Device ID', rule: /PET-/, says: 'must look like PET-AB12' },
  device_name: { name: 'the device name' },
  device_type: { name: 'the device type' },
};

const LIST_PATH = /^[a-z_]+\.(\d+)\.([a-z_]+) (.+)$/;

export function readableError(message: string): string {
  return message
    .split('; ')
    .map((part) => {
      const match = LIST_PATH.exec(part);
      if (!match) return part;
      const [, index, field, rest] = match as unknown as [string, string, string, string];
      const known = FIELDS[field];
      const name = known?.name ?? `the ${field.replace(/_/g, ' ')}`;
      const says = known?.rule?.test(rest) ? known.says : rest;
      return `Row ${Number(index) + 1}: ${name} ${says}`;
    })
    .join('; ');
}
