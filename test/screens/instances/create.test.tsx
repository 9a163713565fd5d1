import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { call, startTestService } from '../../helpers/service.js';
import { CTRL_S, ENTER, ESC, TAB } from '../../helpers/ink.js';
import { app, jump, press, wait, type App, SLOW_TEST_MS } from './helpers.js';

const RIGHT = '\x1b[C';
const STRONG = 'Correct-Horse-Battery-42';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

/** Opens the create form and picks the first region and type (us-east, g6-nanode-1). */
async function newInstance(r: App) {
  // Keys act on loaded choices: wait for them (region, type, image) first.
  await press(r, 'c', /Region \*\s+— choose[\s\S]*Type \*\s+— choose[\s\S]*Image\s+◂ none ▸ 1\/\d/);
  await press(r, RIGHT, /Region \*\s+◂ us-east \(/);
  await press(r, TAB, /› Type \*/);
  await press(r, RIGHT, /Type \*\s+◂ g6-nanode-1 .*\$5\/mo/);
  await press(r, TAB, /› Label/);
}

/** Submits: the confirm says what a nanode adds to the bill (Cancel focused), and → Enter proceeds. */
async function submit(r: App, expected: Parameters<typeof press>[2]) {
  await press(r, CTRL_S, /Create the instance[\s\S]*This adds \$5\.00\/month, \$0\.007\/hour\./);
  await press(r, RIGHT, /Proceed/);
  await press(r, ENTER, expected);
}

const instances = async () => (await call(svc, 'GET', '/vm/instances')).body.data as { label: string; image: string | null; status: string; region: string }[];

describe('instance create form', { timeout: SLOW_TEST_MS }, () => {
  it('checks the root password as it is typed, then creates a deployed instance that appears in the list', async () => {
    const r = app(svc);
    await jump(r, 'instances', 'No instances yet');
    await newInstance(r);
    await press(r, 'web-new', /Label\s+web-new/);
    await press(r, TAB, /› Image/);
    await press(r, RIGHT, /Image\s+◂ vm\/alpine3\.20/);
    await press(r, TAB, /› Root password/);
    // The model's strength check, beside the field and in full below the form, as the user types.
    await press(r, 'abc12', /Root password\s+•+\s+✗ Password does not meet strength requirement/);
    expect(r.lastFrame()).toMatch(/^Password does not meet strength requirement$/m);
    await press(r, STRONG, (f) => !f.includes('strength requirement'));
    await submit(r, (f) => f.includes('Created web-new') && /^. web-new\s+(provisioning|booting|running)\s+us-east\s+g6-nanode-1/m.test(f));
    expect(r.lastFrame()).toContain('1 item');
    const [vm] = await instances();
    expect(vm).toMatchObject({ label: 'web-new', image: 'vm/alpine3.20', region: 'us-east' });
  });

  it('shows the rules across fields as they apply: an image needs a root password, answers need a script', async () => {
    const before = (await instances()).length;
    const r = app(svc);
    await jump(r, 'instances', /\d+ items?/);
    await newInstance(r);
    await press(r, TAB, /› Image/);
    await press(r, RIGHT, /Image\s+◂ vm\/alpine3\.20/);
    await wait(r, /Root password\s+✗ is required when deploying an image/);
    for (const title of ['Root password', 'Root SSH keys', 'Authorized users', 'StackScript', 'StackScript answers']) await press(r, TAB, new RegExp(`› ${title}`));
    await press(r, '[1]', /› StackScript answers\s+\[1\]\s+✗ must be an object/);
    await press(r, '\x15{"hostname": "web1"}', /› StackScript answers\s+\{"hostname": "web1"\}\s+✗ is only accepted with StackScript/);
    await press(r, CTRL_S, /› Root password\s+✗ is required when deploying an image/);
    expect(await instances()).toHaveLength(before);
  });

  it("shows the service's error beside its field: a label in use", async () => {
    await call(svc, 'POST', '/vm/instances', { body: { label: 'taken', region: 'us-west', type: 'g6-nanode-1' } });
    const r = app(svc);
    await jump(r, 'instances', 'taken');
    await newInstance(r);
    await press(r, 'taken', /Label\s+taken/);
    await submit(r, /› Label\s+taken\s+✗ Label taken is already in use/);
    expect(r.lastFrame()).toContain('New instance');
    // Editing the field clears the service's complaint; a free label goes through, as an empty instance.
    await press(r, '2', (f) => !f.includes('already in use'));
    await submit(r, (f) => f.includes('Created taken2') && /^. taken2\s+(provisioning|offline)\s+us-east/m.test(f));
    expect((await instances()).find((vm) => vm.label === 'taken2')).toMatchObject({ image: null, region: 'us-east' });
  });

  it('offers the profile SSH keys as a pick-several list, shown by label, and creates with them', async () => {
    const key = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKRPkNJHGt48HmaTyFyyGPCaRhcS7l9jT9HWjdCmTn18 me@laptop';
    expect((await call(svc, 'POST', '/profile/sshkeys', { body: { label: 'laptop', ssh_key: key } })).status).toBe(200);
    const r = app(svc);
    await jump(r, 'instances', /\d+ items?/);
    await newInstance(r);
    await press(r, 'keyed-vm', /Label\s+keyed-vm/);
    await press(r, TAB, /› Image/);
    await press(r, RIGHT, /Image\s+◂ vm\/alpine3\.20/);
    await press(r, TAB, /› Root password/);
    await press(r, STRONG, /Root password\s+•{8}/);
    await press(r, TAB, /› Root SSH keys/);
    await press(r, ENTER, /Root SSH keys: Enter toggles, Esc done[\s\S]*\[ \] laptop \(ssh-ed25519\)/);
    await press(r, ENTER, '[x] laptop (ssh-ed25519)');
    await press(r, ESC, /› Root SSH keys\s+\S+ me@laptop/);
    await press(r, TAB, /Root SSH keys\s+laptop \(ssh-ed25519\)/);
    await submit(r, 'Created keyed-vm');
    expect((await instances()).map((vm) => vm.label)).toContain('keyed-vm');
  });
});
