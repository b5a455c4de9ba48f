// Jest applies `testTimeout` only from the global config, not per project, so each
// tier sets its own here (loaded through setupFilesAfterEnv in jest.config.js).
jest.setTimeout(120_000);
