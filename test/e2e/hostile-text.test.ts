import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import stringWidth from 'string-width';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYLOAD } from '../helpers/hostile.js';
import { KEYS, jump, type PtyApp } from '../helpers/pty.js';
import { startRecordingProxy, type RecordingProxy } from '../helpers/recording-proxy.js';
import { OWNER_TOKEN } from '../helpers/service.js';
import { useBuiltApp } from './build.js';

/**
 * Issue 29 as its report made it: a proxy appends a payload that would set the
 * terminal's title, write its clipboard (OSC 52), clear the screen and color
 * it, with a bidi override, a zero-width space, an 8-bit CSI and a lone
 * surrogate, to every free-text string the service sends. In each view the
 * bytes the built app writes to its pty hold only the app's own sequences,
 * the screen shows the payload's visible form, and no line outgrows the frame.
 */

const FREE_TEXT = new Set(['label', 'description', 'notes', 'rev_note', 'summary', 'message', 'group', 'company', 'first_name', 'last_name', 'username', 'name', 'tags']);

function taint(value: unknown, key = ''): unknown {
  if (typeof value === 'string') return FREE_TEXT.has(key) ? value + PAYLOAD : value;
  if (Array.isArray(value)) return value.map((v) => taint(v, key));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, taint(v, k)]));
  return value;
}

/** What is left of the app's output once its own sequences are taken out: cursor moves, erases, colors, modes, scrolls. */
// A write may still be on its way: a sequence cut at the end of what has arrived is the app's too.
const foreign = (raw: string) => raw.replace(/\x1b\[[?0-9;:]*[@A-Za-z]|\x1b[DM78]|\x1b(\[[?0-9;:]*)?$/g, '');

/** The one OSC the app writes: a copy to the clipboard, the exact value in base64. */
const osc52 = (text: string) => `\x1b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\x07`;

function expectNothingRaw(output: string, copied?: string) {
  const raw = copied === undefined ? output : output.split(osc52(copied)).join('');
  const rest = foreign(raw);
  // Only line ends are left of C0; nothing of C1, no bidi or invisible format character.
  const bad = /[\x00-\x09\x0b\x0c\x0e-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/.exec(rest);
  expect(bad && { char: `U+${bad[0].charCodeAt(0).toString(16)}`, around: JSON.stringify(rest.slice(Math.max(0, bad.index - 40), bad.index + 40)) }).toBeNull();
  expect(raw).not.toContain('\x1b]');
  expect(raw).not.toContain('\x1bP');
}

const COLS = 110;
const built = useBuiltApp();
let proxy: RecordingProxy;
// Where Ctrl-S saves: a folder of the test's own.
const cwd = mkdtempSync(join(tmpdir(), 'vmtui-e2e-hostile-'));

beforeAll(async () => {
  proxy = await startRecordingProxy(built.svc.origin, { change: (_path, body) => taint(body) });
});

afterAll(async () => {
  built.killAll();
  await proxy?.close();
  rmSync(cwd, { recursive: true, force: true });
});

describe('nothing a server sends drives the terminal', { timeout: 180_000 }, () => {
  it('every view of hostile text: no raw control byte reaches the pty, the screen shows their visible forms, the frame keeps its width', async () => {
    // Outside tmux, whatever runs the test: a copy is then the app's OSC 52.
    const app: PtyApp = built.start(['--api-url', proxy.base, '--token', OWNER_TOKEN], { cols: COLS, rows: 40, cwd, env: { TMUX: undefined } });
    let copied: string | undefined;
    const seen: string[] = [];
    const check = async (view: string, shows: RegExp) => {
      const screen = await app.waitForScreen(shows);
      expectNothingRaw(app.output(), copied);
      for (const line of screen.split('\n')) expect(stringWidth(line), `${view}: ${line}`).toBeLessThanOrEqual(COLS);
      seen.push(view);
      return screen;
    };
    // A jump lands on `… › <title>` (the crumbs keep the way it came): waited for first, so what is checked is the new view, not the one before.
    const visit = async (name: string, title: string, shows: RegExp) => {
      await jump(app, name);
      await app.waitForScreen(new RegExp(`^(home|…).* › ${title}$`, 'm'));
      return check(name, shows);
    };

    // The user's name in the header, on the home view.
    await check('home', /␛\]0;PWNED-TITLE␇[^]*Load balancers\s+3/);
    const list = await visit('instances', 'instances', /^› .*␛\]0;/m);
    // A column keeps its place on every row: the Type of each row under its title (an identifier, shown whole beside the long labels).
    const lines = list.split('\n');
    // The screen's text holds a wide character once: a place is the columns before it.
    const column = (l: string, at: number) => stringWidth(l.slice(0, at));
    const header = lines.find((l) => /\bType\b/.test(l));
    if (!header) throw new Error(`no Type column at ${COLS} columns:\n${list}`);
    const type = column(header, header.indexOf('Type'));
    const TYPE = /\bg\d-[a-z]+-[\w-]+/;
    const rowsShown = lines.filter((l) => TYPE.test(l));
    expect(rowsShown.length).toBeGreaterThan(10);
    for (const l of rowsShown) expect(column(l, l.search(TYPE)), l).toBe(type);

    // What is copied and exported is the data, exactly: the label in the app's own OSC 52, base64; the lists' files as the server sent them.
    const label = `web-1${PAYLOAD}`;
    app.press('Y');
    await app.waitForScreen(/^home › instances › copy$/m);
    app.press('l');
    await app.waitForScreen(/Copied the label \(OSC 52\)/);
    expect(app.output()).toContain(osc52(label));
    copied = label;
    app.press('\x13');
    await app.waitForScreen(/Exported 21 items/);
    const files = readdirSync(cwd);
    const json = readFileSync(join(cwd, files.find((f) => f.endsWith('.json'))!), 'utf8');
    // JSON escapes the C0 controls and the lone surrogate; what it writes as is, it reads back the same.
    expect(json).not.toMatch(/[\x00-\x09\x0b-\x1f]/);
    expect(json).toContain('web-1漢字e\u0301\\u001b]0;PWNED-TITLE\\u0007');
    expect((JSON.parse(json) as { label: string }[]).map((r) => r.label)).toContain(label);
    const csv = readFileSync(join(cwd, files.find((f) => f.endsWith('.csv'))!), 'utf8');
    // UTF-8 has no form for a lone surrogate: a text file holds U+FFFD in its place, all else as sent.
    expect(csv.includes(label.replace('\ud800', '\ufffd'))).toBe(true);

    app.press('d');
    await check('instance detail', /^home › instances › detail$[^]*label +web-1漢字e\u0301␛\]0;PWNED-TITLE␇␛\]52;c;ZWNobyBwd25lZA==␇␛\[2J␛\[31mRED<U\+202E>evil<U\+200B>/m);
    app.press(KEYS.esc);
    await app.waitForScreen(/^home › instances$/m);
    app.press('y');
    // JSON escapes what it must; the rest shows as the gate shows it.
    await check('instance JSON', /^home › instances › json$[^]*"label": "web-1漢字e\u0301\\u001b\]0;PWNED-TITLE\\u0007[^]*<U\+009B>2J\\ud800"/m);
    app.press(KEYS.esc);
    await app.waitForScreen(/^home › instances$/m);
    app.press(KEYS.enter);
    await check('instance overview', /Disks[^]*␛\]0;/);

    await visit('lb', 'load balancers', /^› .*␛\]0;/m);
    app.press(KEYS.enter);
    await check('balancer ports', /lb漢字e\u0301␛\]0;PWNED.* › configs$[^]*^›\s+80 http/m);
    app.press(KEYS.enter);
    await check('balancer nodes', /› nodes$[^]*^› .*␛\]0;/m);

    await visit('firewalls', 'firewalls', /^› .*␛\]0;/m);
    await visit('events', 'events', /^› .*␛\]0;/m);
    await visit('issues', 'triage', /^› .*␛\]0;/m);
    await visit('scripts', 'scripts', /^› .*␛\]0;/m);
    app.press('d');
    await check('script detail', /␛\]52;c;ZWNobyBwd25lZA==␇/);
    app.press(KEYS.esc);
    await visit('tags', 'tags', /^› .*␛\]0;/m);
    await visit('contacts', 'contacts', /^› .*␛\]0;/m);
    await visit('profile', 'profile', /^(?!vmtui).*␛\]0;PWNED-TITLE␇/m);
    expect(seen).toHaveLength(16);
  });
});
