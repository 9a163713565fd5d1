// The service bundle's entry: the serve command and the embedded demo's start.
export { runServe, UsageError } from './serve-command.js';
export { startService } from './service.js';
export { runImport } from './import/import-command.js';
