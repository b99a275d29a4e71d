/** Every temperature on screen goes through one component, in the owner's units. */
export { Temperature, useDisplayUnits } from '@/lib/display-units';
export { ConnectionBadge } from '@/components/dog-status';
