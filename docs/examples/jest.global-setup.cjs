// Jest globalSetup: one service for the whole run, in Jest's own process. Jest hands the tests
// nothing from here but the environment, so the address and token go there (VM_API_URL, VM_TOKEN).
// In jest.config.js: { globalSetup: './jest.global-setup.cjs', globalTeardown: './jest.global-teardown.cjs' }
const { startService } = require('vmtui/service');

module.exports = async function globalSetup() {
  const service = await startService({ seed: 'empty', speed: 'instant' });
  // Only globalTeardown sees this.
  globalThis.__VMTUI_SERVICE__ = service;
  process.env.VM_API_URL = service.baseUrl;
  process.env.VM_TOKEN = service.token;
  process.env.VM_RESTRICTED_TOKEN = service.restrictedToken;
};
