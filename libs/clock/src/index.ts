export { ManualClock, systemClock, type Clock } from './clock.js';
export { ClockError, type ClockErrorCode } from './errors.js';
export {
  CLOCK_OFFSET_KEY,
  clockBucketName,
  startVirtualClock,
  waitForClockOffset,
  type ClockLogger,
  type VirtualClock,
  type VirtualClockOptions,
} from './virtual-clock.js';
