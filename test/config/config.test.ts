import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTuiArgs } from '../../src/app/args.js';
import { ScreenRegistry } from '../../src/app/screen.js';
import { checkSettings } from '../../src/app/settings.js';
import { readConfig, saveColumns, saveProfile } from '../../src/config/config.js';
import { resolveTarget } from '../../src/config/target.js';
import { screens } from '../../src/screens/index.js';

const file = (text: string) => {
  const f = join(mkdtempSync(join(tmpdir(), 'vmtui-config-')), 'config.json');
  writeFileSync(f, text);
  return f;
};
const registry = new ScreenRegistry(screens);
const good = { key: 'p', description: 'ping it', screens: ['instances'], command: 'ping -c1 $VM_IPV4' };

describe('the config file, read tolerantly', () => {
  it('JSON that does not parse is named with its line:col, and nothing else is lost to a crash', () => {
    const f = file('{\n  "profiles": {\n    "prod": { "apiUrl": "http://h/v4", }\n  }\n}\n');
    const { config, problems } = readConfig(f);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^config file ${f} is not valid JSON at line 3:40: `));
    expect(Object.keys(config.profiles)).toEqual([]);
    expect(readConfig(file('{"profiles": {')).problems[0]).toMatch(/at line 1:15: Expected property name/);
    expect(readConfig(file('{"profiles": ')).problems[0]).toMatch(/at line 1:14: the file ends too early/);
  });

  it('a bad entry costs itself: the others are read, each problem names its key path', () => {
    // A key named __proto__ is a name like any other (written as text: in an object literal it would set the prototype).
    const f = file(
      JSON.stringify({
        profiles: { prod: { apiUrl: 'http://h/v4', token: 'T' }, broken: { apiUrl: 'http://x/v4' }, PROTO: { apiUrl: 'http://p/v4', token: 'P' } },
        aliases: { pg: 'services postgres', 'bad name': 'instances', empty: '' },
        plugins: { ping: good, nokey: { ...good, key: 'ctrl+F1' }, loud: { ...good, key: 'l', background: 'yes' }, extra: { ...good, key: 'z', shell: 'bash' } },
        exportDir: 7,
        colour: 'blue',
      }).replace('"PROTO"', '"__proto__"'),
    );
    const { config, problems } = readConfig(f);
    expect(Object.keys(config.profiles).sort()).toEqual(['__proto__', 'prod']);
    expect(config.aliases).toEqual(new Map([['pg', 'services postgres']]));
    expect(config.plugins.map((p) => p.name)).toEqual(['ping']);
    expect(config.exportDir).toBeUndefined();
    const at = (path: string) => problems.find((p) => p.startsWith(`config file ${f}: ${path} `));
    expect(at('profiles.broken.token')).toMatch(/must be a non-empty string/);
    expect(at('aliases.bad name')).toBeDefined();
    expect(at('aliases.empty')).toBeDefined();
    expect(at('plugins.nokey.key')).toMatch(/ctrl\+<letter>/);
    expect(at('plugins.loud.background')).toMatch(/true or false/);
    expect(at('plugins.extra.shell')).toMatch(/is not a plugin setting/);
    expect(at('exportDir')).toMatch(/folder path/);
    expect(at('colour')).toMatch(/is not a setting/);
    expect(problems).toHaveLength(8);
  });

  it('columns: each view a list of fields with optional widths; a bad key or width is named and left out; saveColumns keeps the rest of the file', () => {
    const f = file('{"profiles": {}, "columns": {"instances": [{"key": "label"}, {"key": "specs.memory", "width": 9}, {"key": "a b"}, {"key": "id", "width": 1}]}}');
    const { config, problems } = readConfig(f);
    expect(config.columns?.get('instances')).toEqual([{ key: 'label' }, { key: 'specs.memory', width: 9 }]);
    expect(problems).toEqual([expect.stringMatching(/columns\.instances\[2\]\.key must be a field name/), expect.stringMatching(/columns\.instances\[3\]\.width must be a whole number from 3 to 200/)]);
    saveColumns(f, 'firewalls', [{ key: 'label', width: 20 }]);
    const again = readConfig(f).config;
    expect(again.columns?.get('firewalls')).toEqual([{ key: 'label', width: 20 }]);
    expect(again.columns?.get('instances')).toHaveLength(2);
  });

  it('alerts switch the bell, OSC 9 and OSC 777 one by one; an unknown signal or a non-boolean is named and left out', () => {
    expect(readConfig(file('{"alerts": {"bell": false, "osc777": true}}')).config.alerts).toEqual({ bell: false, osc777: true });
    const { config, problems } = readConfig(file('{"alerts": {"beep": true, "osc9": "on", "bell": true}}'));
    expect(config.alerts).toEqual({ bell: true });
    expect(problems).toEqual([expect.stringMatching(/: alerts\.beep is not an alert signal \(bell, osc9, osc777\)$/), expect.stringMatching(/: alerts\.osc9 must be true or false$/)]);
    expect(readConfig(file('{"alerts": true}')).problems).toEqual([expect.stringMatching(/: alerts must be an object/)]);
  });

  it('history is true or false; anything else is named and left out', () => {
    expect(readConfig(file('{"history": true}')).config.history).toBe(true);
    const { config, problems } = readConfig(file('{"history": "yes"}'));
    expect(config.history).toBeUndefined();
    expect(problems).toEqual([expect.stringMatching(/: history must be true or false$/)]);
  });

  it('exportDir is read for the export (Ctrl-S)', () => {
    expect(readConfig(file('{"exportDir": "/tmp/lists"}')).config.exportDir).toBe('/tmp/lists');
  });

  it('--profile naming a profile that is missing (or unreadable) is still an error, with the file\'s problems', () => {
    const f = file('{"profiles": {"prod": {"apiUrl": "http://h/v4"}}}');
    expect(() => resolveTarget(parseTuiArgs(['--profile', 'prod']), {}, f)).toThrow(/no profile "prod" .*profiles\.prod\.token must be a non-empty string/);
    expect(() => resolveTarget(parseTuiArgs(['--profile', 'constructor']), {}, file('{}'))).toThrow(/no profile "constructor"/);
  });

  it('saving a profile keeps the aliases and plugins, and refuses to write over a file that does not parse', () => {
    const f = file(JSON.stringify({ aliases: { pg: 'services postgres' }, plugins: { ping: good } }));
    saveProfile(f, 'prod', { apiUrl: 'http://h/v4', token: 'T' });
    expect(JSON.parse(readFileSync(f, 'utf8'))).toMatchObject({ aliases: { pg: 'services postgres' }, plugins: { ping: good }, profiles: { prod: { token: 'T' } } });
    const broken = file('{"profiles": ');
    expect(() => saveProfile(broken, 'prod', { apiUrl: 'http://h/v4', token: 'T' })).toThrow(/is not valid JSON/);
    expect(readFileSync(broken, 'utf8')).toBe('{"profiles": ');
  });
});

describe('aliases and plugins against the app', () => {
  const check = (text: object) => {
    const f = file(JSON.stringify(text));
    return { f, ...checkSettings(readConfig(f).config, registry, f) };
  };

  it('an alias that takes a built-in name, or names no area, is an error naming it', () => {
    const { f, settings, problems } = check({ aliases: { vm: 'services', pg: 'services postgres', nowhere: 'galaxies far' } });
    expect([...settings.aliases.keys()]).toEqual(['pg']);
    expect(problems).toEqual([`config file ${f}: aliases.vm clashes with the built-in name "vm"`, `config file ${f}: aliases.nowhere names no area: "galaxies" (: Tab lists the names)`]);
  });

  it('a plugin whose key is a built-in key, or whose views do not exist, is an error naming it', () => {
    const { f, settings, problems } = check({ plugins: { ping: good, del: { ...good, key: 'ctrl+d' }, sorter: { ...good, key: 's' }, where: { ...good, screens: ['galaxies'] }, twin: { ...good, description: 'same key' } } });
    expect(settings.plugins.map((p) => p.name)).toEqual(['ping']);
    expect(problems).toContain(`config file ${f}: plugins.del.key "ctrl+d" is a built-in key (? lists them); pick another`);
    expect(problems).toContain(`config file ${f}: plugins.sorter.key "s" is a built-in key (? lists them); pick another`);
    expect(problems.find((p) => p.includes('plugins.where.screens'))).toMatch(/names no list view: galaxies/);
    expect(problems).toContain(`config file ${f}: plugins.twin.key "p" is plugin ping's key on the same view`);
  });
});
