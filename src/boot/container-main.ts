import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { containerServeArgs, READY_FILE } from './container-args.js';

/**
 * The entry of the `vmtui:dev` image (`npm run build:image`): `serve` with
 * the container's defaults (container-args.ts), anything else as `vmtui`
 * runs it. `--health-check` is the image's health check: exit 0 once the
 * service answers GET /__control/health.
 */

const ENTRY = '/app/dist/vmtui.js';
async function healthCheck(): Promise<number> {
  try {
    const ready = JSON.parse(readFileSync(READY_FILE, 'utf8')) as { base_url: string };
    const url = new URL('/__control/health', ready.base_url.replace('://0.0.0.0', '://127.0.0.1'));
    const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
    return res.ok ? 0 : 1;
  } catch {
    return 1;
  }
}

function main(): void {
  const args = process.argv.slice(2);
  if (args[0] === '--health-check') {
    void healthCheck().then((code) => process.exit(code));
    return;
  }
  process.argv = [process.argv[0]!, ENTRY, ...(args[0] === 'serve' ? ['serve', ...containerServeArgs(args.slice(1))] : args)];
  createRequire(ENTRY)(ENTRY);
}

main();
