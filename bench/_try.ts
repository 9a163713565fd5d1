import { spawnApp, KEYS } from '../test/helpers/pty.js';
import { startTestService, OWNER_TOKEN } from '../test/helpers/service.js';
const svc = await startTestService();
for (let i = 0; i < 3; i++) {
  const app = spawnApp(['--api-url', svc.baseUrl, '--token', OWNER_TOKEN], { env: { VMTUI_KEYLOG: `/tmp/keylog${i}` } });
  await app.waitForScreen(/Types\s+9/);
  app.press(':');
  await app.waitForScreen(/^:/m);
  app.press('regions');
  await app.waitForScreen(':regions');
  await new Promise((r) => setTimeout(r, Number(process.env.D ?? 0)));
  app.press(KEYS.enter);
  await new Promise((r) => setTimeout(r, 800));
  const s = await app.screen();
  console.log(i, s.includes('7 items') ? 'OK' : 'FAIL', JSON.stringify(s.split('\n').slice(-3)));
  app.kill();
}
await svc.close();
