import { z } from 'zod';
import { ConfigError, baseEnvSchema, bool, durationMs, loadConfig, port } from './index.js';

const serviceSchema = baseEnvSchema.extend({
  JWT_SECRET: z.string().min(16),
  HTTP_PORT: port(8080),
  STRICT: bool(false),
  REPLY_TIMEOUT_MS: durationMs(5_000),
});

const REQUIRED = { JWT_SECRET: 'x'.repeat(16) };

function configErrorOf(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('applies every default of the base schema when the environment is empty', () => {
    const config = loadConfig(baseEnvSchema, {});

    expect(config).toEqual({
      HEARTH_ENV: 'production',
      HEARTH_BUILD: '',
      HEARTH_NAMESPACE: 'hearth',
      NATS_URL: 'nats://127.0.0.1:4222',
      PGLITE_DIR: '.data/pglite',
      LOG_LEVEL: 'info',
    });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.OTEL_EXPORTER_OTLP_ENDPOINT).toBeUndefined();
  });

  it('applies helper defaults and treats empty values as unset', () => {
    const config = loadConfig(serviceSchema, { ...REQUIRED, HTTP_PORT: '', STRICT: '' });

    expect(config.HTTP_PORT).toBe(8080);
    expect(config.STRICT).toBe(false);
    expect(config.REPLY_TIMEOUT_MS).toBe(5_000);
  });

  it('parses set values', () => {
    const config = loadConfig(serviceSchema, {
      ...REQUIRED,
      HEARTH_ENV: 'production',
      HEARTH_NAMESPACE: 't_abc123',
      NATS_URL: 'nats://a:4222, tls://b:4223,c:4224',
      DATABASE_URL: 'postgres://u:p@localhost:5432/hearth',
      LOG_LEVEL: 'debug',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel:4318',
      HTTP_PORT: '9000',
      STRICT: 'TRUE',
      REPLY_TIMEOUT_MS: '1.5s',
    });

    expect(config).toMatchObject({
      HEARTH_ENV: 'production',
      HEARTH_NAMESPACE: 't_abc123',
      DATABASE_URL: 'postgres://u:p@localhost:5432/hearth',
      LOG_LEVEL: 'debug',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel:4318',
      HTTP_PORT: 9000,
      STRICT: true,
      REPLY_TIMEOUT_MS: 1_500,
    });
  });

  it.each([
    ['1', true],
    ['0', false],
    ['false', false],
    ['True', true],
  ])('reads bool %p as %p', (raw, expected) => {
    expect(loadConfig(serviceSchema, { ...REQUIRED, STRICT: raw }).STRICT).toBe(expected);
  });

  it.each([
    ['250', 250],
    ['250ms', 250],
    ['30s', 30_000],
    ['5m', 300_000],
    ['2h', 7_200_000],
    ['1d', 86_400_000],
  ])('reads duration %p as %p ms', (raw, expected) => {
    expect(loadConfig(serviceSchema, { ...REQUIRED, REPLY_TIMEOUT_MS: raw }).REPLY_TIMEOUT_MS).toBe(expected);
  });

  it('names a missing required variable', () => {
    const error = configErrorOf(() => loadConfig(serviceSchema, {}));

    expect(error.name).toBe('ConfigError');
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.variables).toEqual(['JWT_SECRET']);
    expect(error.message).toContain('JWT_SECRET: missing');
    expect(error.cause).toBeInstanceOf(z.ZodError);
  });

  it('names every bad value at once', () => {
    const error = configErrorOf(() =>
      loadConfig(serviceSchema, {
        ...REQUIRED,
        HEARTH_ENV: 'staging',
        HEARTH_NAMESPACE: 'Hearth-Prod',
        NATS_URL: 'http://localhost:4222',
        DATABASE_URL: 'mysql://localhost/db',
        LOG_LEVEL: 'loud',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url',
        HTTP_PORT: '70000',
        STRICT: 'yes',
        REPLY_TIMEOUT_MS: 'soon',
      }),
    );

    expect(error.variables).toEqual([
      'DATABASE_URL',
      'HEARTH_ENV',
      'HEARTH_NAMESPACE',
      'HTTP_PORT',
      'LOG_LEVEL',
      'NATS_URL',
      'OTEL_EXPORTER_OTLP_ENDPOINT',
      'REPLY_TIMEOUT_MS',
      'STRICT',
    ]);
    for (const name of error.variables) expect(error.message).toContain(`${name}:`);
  });

  it.each([['abc'], ['80.5'], ['-1']])('rejects port %p', (raw) => {
    const error = configErrorOf(() => loadConfig(serviceSchema, { ...REQUIRED, HTTP_PORT: raw }));
    expect(error.variables).toEqual(['HTTP_PORT']);
  });

  it('returns a deeply frozen object', () => {
    const schema = z.object({ LIMITS: z.string().default('a,b').transform((s) => ({ list: s.split(',') })) });
    const config = loadConfig(schema, {});

    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.LIMITS)).toBe(true);
    expect(Object.isFrozen(config.LIMITS.list)).toBe(true);
    expect(() => {
      (config as { LIMITS: unknown }).LIMITS = null;
    }).toThrow(TypeError);
  });

  it('does not read variables outside the schema into the result', () => {
    const config = loadConfig(baseEnvSchema, { PATH: '/usr/bin' });
    expect(config).not.toHaveProperty('PATH');
  });
});
