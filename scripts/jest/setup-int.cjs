// Jest applies `testTimeout` only from the global config, not per project, so each
// tier sets its own here (loaded through setupFilesAfterEnv in jest.config.js).
jest.setTimeout(120_000);

// Code under test reads its config from the environment; production is the default
// there, integration tests run as `test` (virtual clock, dev routes) unless one says otherwise.
if (!process.env.HEARTH_ENV) process.env.HEARTH_ENV = 'test';
