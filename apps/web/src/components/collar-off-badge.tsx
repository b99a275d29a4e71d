import { CircleDashed } from 'lucide-react';
import type { Device } from '@pawguard/shared';
import { Badge } from '@/components/ui/badge';

/**
 * "Collar off?": the collar seems not to be on its dog (no heart rate and no movement for a
 * few minutes). A data-quality note in a neutral colour, never a heat level; nothing while the
 * collar is worn.
 */
export function CollarOffBadge({ device }: { device: Pick<Device, 'collar_off'> | undefined }) {
  if (!device?.collar_off) return null;
  return (
    <Badge
      variant="muted"
      data-collar-off="true"
      title="No heart rate and no movement for a few minutes: the collar seems not to be worn. Until it is back on, only heat at the owner’s critical threshold raises a heat alert."
    >
      <CircleDashed aria-hidden="true" />
      Collar off?
    </Badge>
  );
}
