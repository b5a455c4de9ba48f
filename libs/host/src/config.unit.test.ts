import { loadHostConfig } from './config.js';

describe('host config', () => {
  it('reads TRUST_PROXY as Fastify takes it: off by default, a flag, a hop count or a list of proxies', () => {
    expect(loadHostConfig({}).TRUST_PROXY).toBe(false);
    expect(loadHostConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(loadHostConfig({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadHostConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).TRUST_PROXY).toBe('10.0.0.0/8, 127.0.0.1');
  });

  it('defaults to production, short database timeouts and a two-minute handler deadline', () => {
    expect(loadHostConfig({})).toMatchObject({
      HEARTH_ENV: 'production',
      DATABASE_CONNECT_TIMEOUT_MS: 5_000,
      DATABASE_STATEMENT_TIMEOUT_MS: 30_000,
      HANDLER_DEADLINE_MS: 120_000,
    });
    expect(loadHostConfig({ HANDLER_DEADLINE_MS: '90s' }).HANDLER_DEADLINE_MS).toBe(90_000);
  });
});
