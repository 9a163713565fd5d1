import { spawnApp } from '../test/helpers/pty.js';
import { startTestService, OWNER_TOKEN } from '../test/helpers/service.js';
const svc = await startTestService();
const app = spawnApp(['--api-url', svc.baseUrl, '--token', OWNER_TOKEN], { nodeArgs: ['--cpu-prof', '--cpu-prof-dir=/tmp/prof2'] });
await app.waitForScreen(/Regions\s+\d+/);
app.press('q');
await app.exited;
await svc.close();
