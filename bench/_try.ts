import { spawnApp, KEYS } from '../test/helpers/pty.ts';
import { startTestService, OWNER_TOKEN } from '../test/helpers/service.ts';
const svc = await startTestService();
const t0 = Date.now();
const app = spawnApp(['--api-url', svc.baseUrl, '--token', OWNER_TOKEN]);
try {
  console.log(await app.waitForScreen('Regions'));
  console.log('first frame ms', Date.now() - t0);
  await app.waitForScreen(/Regions\s+\d+/);
  console.log('data ms', Date.now() - t0);
  console.log(await app.screen());
  app.press(':'); await app.waitForScreen(/^:/m); app.press('reg'); await new Promise(r=>setTimeout(r,100)); console.log(await app.screen());
  app.press(KEYS.enter); await app.waitForScreen('us-east'); console.log(await app.screen());
  app.press('q');
  console.log('exit', await app.exited, app.alternateScreen(), app.output().includes('\x1b[?1049l'));
} catch (e) { console.log(e.message); app.kill(); }
await svc.close();
