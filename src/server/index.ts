// The service bundle's entry: the serve command, the embedded demo's start, and `vmtui/service`, the library
// test suites import (its types: library-api.d.ts).
export { runServe } from './serve-command.js';
export { UsageError } from '../command-line.js';
export { startService as startRunningService } from './service.js';
export { startService, ControlError } from './library.js';
export { runImport } from './import/import-command.js';
