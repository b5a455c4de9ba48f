import { ConfigError } from '@hearth/config';
import { eventEncryption, loadHostConfig } from './config.js';

const KEK = Buffer.alloc(32, 5).toString('base64');

describe('host config', () => {
  it('reads TRUST_PROXY as Fastify takes it: off by default, a flag, a hop count or a list of proxies', () => {
    expect(loadHostConfig({ HEARTH_KEK: KEK }).TRUST_PROXY).toBe(false);
    expect(loadHostConfig({ HEARTH_KEK: KEK, TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(loadHostConfig({ HEARTH_KEK: KEK, TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadHostConfig({ HEARTH_KEK: KEK, TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).TRUST_PROXY).toBe('10.0.0.0/8, 127.0.0.1');
  });

  it('defaults to production, short database timeouts and a two-minute handler deadline', () => {
    expect(loadHostConfig({ HEARTH_KEK: KEK })).toMatchObject({
      HEARTH_ENV: 'production',
      EVENT_ENCRYPTION: 'on',
      KMS_PROVIDER: 'local',
      DATA_KEY_CACHE_MS: 60_000,
      DATABASE_CONNECT_TIMEOUT_MS: 5_000,
      DATABASE_STATEMENT_TIMEOUT_MS: 30_000,
      DATABASE_PREPARED_STATEMENTS: 'on',
      HANDLER_DEADLINE_MS: 120_000,
    });
    expect(loadHostConfig({ HEARTH_KEK: KEK, DATABASE_PREPARED_STATEMENTS: 'off' }).DATABASE_PREPARED_STATEMENTS).toBe('off');
    expect(() => loadHostConfig({ HEARTH_KEK: KEK, DATABASE_PREPARED_STATEMENTS: 'yes' })).toThrow(/DATABASE_PREPARED_STATEMENTS/);
    expect(loadHostConfig({ HEARTH_KEK: KEK, HANDLER_DEADLINE_MS: '90s' }).HANDLER_DEADLINE_MS).toBe(90_000);
  });

  it('needs a KEK in production, derives a development one elsewhere, and refuses a KEK of the wrong size', () => {
    const missing = (() => {
      try {
        loadHostConfig({});
      } catch (err) {
        return err;
      }
      return undefined;
    })();
    expect(missing).toBeInstanceOf(ConfigError);
    expect((missing as ConfigError).variables).toEqual(['HEARTH_KEK']);
    expect(() => loadHostConfig({ HEARTH_KEK: Buffer.alloc(16).toString('base64') })).toThrow(/HEARTH_KEK/);
    const dev = loadHostConfig({ HEARTH_ENV: 'dev', HEARTH_NAMESPACE: 'hearth' });
    expect(eventEncryption(dev)?.kek.id).toMatch(/^local:/);
    // Off: only the benchmark's comparison; no KEK needed, and no encryption.
    expect(eventEncryption(loadHostConfig({ EVENT_ENCRYPTION: 'off' }))).toBeUndefined();
    const prod = eventEncryption(loadHostConfig({ HEARTH_KEK: KEK }));
    expect(prod?.kek.id).not.toBe(eventEncryption(dev)?.kek.id);
    expect(JSON.stringify(prod)).not.toContain(KEK);
  });

  it('takes Vault transit as the KMS, with its address and token', () => {
    expect(() => loadHostConfig({ KMS_PROVIDER: 'vault' })).toThrow(/VAULT_ADDR/);
    expect(() => loadHostConfig({ KMS_PROVIDER: 'vault', VAULT_ADDR: 'https://vault.internal:8200' })).toThrow(/VAULT_TOKEN/);
    const c = loadHostConfig({ KMS_PROVIDER: 'vault', VAULT_ADDR: 'https://vault.internal:8200', VAULT_TOKEN: 's.x' });
    expect(eventEncryption(c)?.kek.id).toBe('vault:transit/hearth-kek');
  });
});
