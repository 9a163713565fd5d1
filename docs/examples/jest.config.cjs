// jest.config.cjs
module.exports = { globalSetup: './jest.global-setup.cjs', globalTeardown: './jest.global-teardown.cjs' };
