import { KmsUnavailableError } from './keys/kek.js';
import { isPermissionViolation, isTransientError } from './transient.js';

describe('isTransientError', () => {
  const named = (name: string, message = name, cause?: unknown) => Object.assign(new Error(message, { cause }), { name });

  it('waits out an outage: NATS gone, a request unanswered, Postgres restarting, the KMS sealed', () => {
    expect(isTransientError(named('ConnectionError'))).toBe(true);
    expect(isTransientError(named('RequestError', 'request failed', named('TimeoutError')))).toBe(true);
    expect(isTransientError(Object.assign(new Error('terminating connection'), { code: '57P01' }))).toBe(true);
    expect(isTransientError(new KmsUnavailableError('vault transit decrypt answered 503: Vault is sealed'))).toBe(true);
  });

  it('does not wait out a refused permission, wherever it sits in the cause chain', () => {
    const refused = named('PermissionViolationError', "Permissions Violation for Publish to \"$JS.API.STREAM.MSG.DELETE.HEARTH_DLQ\"");
    expect(isPermissionViolation(refused)).toBe(true);
    expect(isTransientError(named('RequestError', 'request failed', refused))).toBe(false);
    expect(isTransientError(new Error('bad input'))).toBe(false);
  });
});
