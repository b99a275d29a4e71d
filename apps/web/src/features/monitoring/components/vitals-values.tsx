/** Every temperature on screen goes through this one component (components/temperature). */
export { Temperature, temperatureText } from '@/components/temperature';
export { ConnectionBadge } from '@/components/dog-status';
