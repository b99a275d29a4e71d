/**
 * The devices feature lives in services/devices/ (one file per purpose; see its index.ts).
 * This module keeps the old import path working.
 */
export {
  DeviceService,
  hashDeviceKey,
  type DeviceServiceDeps,
  type RemoveOutcome,
} from './devices/index.js';
export { toDevice } from '../repositories/devices-repository.js';
