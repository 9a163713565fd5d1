import { describe, expect, it } from 'vitest';
import { KEYS } from '../helpers/pty.js';
import { OWNER_TOKEN } from '../helpers/service.js';
import { useBuiltApp } from './build.js';

const built = useBuiltApp();

/** The texts copied through OSC 52 so far, decoded. */
const copied = (output: string) => [...output.matchAll(/\x1b\]52;c;([A-Za-z0-9+/=]*)\x07/g)].map((m) => Buffer.from(m[1]!, 'base64').toString('utf8'));

describe(':requests in a terminal', { timeout: 120_000 }, () => {
  it("lists the app's own calls; Y copies the selected one as a curl line that names $VM_TOKEN, never the token", async () => {
    const app = built.start(undefined, { cols: 100, rows: 30 });
    const { svc } = built;
    await app.waitForScreen(/Load balancers\s+3/);
    app.press(':');
    await app.waitForScreen(/^: ?$/m);
    app.press('net');
    await app.waitForScreen(/^:net ?$/m);
    app.press(KEYS.enter);
    await app.waitForScreen(/GET +\/profile +200 +(\d+ ms|\d+\.\d s)/);

    app.press('/');
    await app.waitForScreen(/method, path or status words/);
    app.press('vm/instances');
    app.press(KEYS.enter);
    const list = await app.waitForScreen(/^› .*GET +\/vm\/instances\?page=1&page_size=\d+ +200/m);
    expect(list).toMatch(/^home › requests$/m);

    app.press('Y');
    await app.waitForScreen(/Copied GET \/vm\/instances as a curl line \(set \$VM_TOKEN first\)/);
    const [line] = copied(app.output());
    expect(line).toMatch(new RegExp(`^curl -sS -H "Authorization: Bearer \\$VM_TOKEN" '?${svc.baseUrl.replace(/[.]/g, '\\.')}/vm/instances\\?page=1&page_size=\\d+'?$`));
    expect(app.output()).not.toContain(Buffer.from(OWNER_TOKEN).toString('base64').slice(0, 20));
    expect(line).not.toContain(OWNER_TOKEN);

    // Enter: the call whole, the token cut to its first characters.
    app.press(KEYS.enter);
    const detail = await app.waitForScreen(/Request headers/);
    expect(detail).toMatch(/authorization: Bearer test…/);
    expect(detail).not.toContain(OWNER_TOKEN);
    app.press('q');
    expect(await app.exited).toBe(0);
  });
});
