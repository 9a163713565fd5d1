// Jest globalTeardown: stops the service jest.global-setup.cjs started.
module.exports = async function globalTeardown() {
  await globalThis.__VMTUI_SERVICE__?.close();
};
