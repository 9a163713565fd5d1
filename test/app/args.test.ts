import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTuiArgs } from '../../src/app/args.js';
import { ConfigError, loadConfig, saveProfile } from '../../src/config/config.js';
import { resolveTarget } from '../../src/config/target.js';

const dir = () => mkdtempSync(join(tmpdir(), 'vmtui-config-'));
const target = (argv: string[], env: NodeJS.ProcessEnv = {}, file = join(dir(), 'config.json')) => resolveTarget(parseTuiArgs(argv), env, file);

describe('command line', () => {
  it('has defaults', () => {
    expect(parseTuiArgs([])).toMatchObject({ readOnly: false, refreshSeconds: 5, fresh: false, help: false });
  });

  it('refuses a refresh faster than 2 seconds, or not a number', () => {
    expect(() => parseTuiArgs(['--refresh', '1'])).toThrow('--refresh must be at least 2 seconds (got 1)');
    expect(() => parseTuiArgs(['--refresh', 'soon'])).toThrow('--refresh must be a number of seconds');
    expect(parseTuiArgs(['--refresh', '2.5']).refreshSeconds).toBe(2.5);
  });

  it('takes an existing folder for exports, made absolute; a missing one or a file is refused at start', () => {
    const folder = dir();
    expect(parseTuiArgs(['--export-dir', folder]).exportDir).toBe(folder);
    expect(parseTuiArgs([]).exportDir).toBeUndefined();
    expect(() => parseTuiArgs(['--export-dir', join(folder, 'nope')])).toThrow(`--export-dir ${join(folder, 'nope')} does not exist`);
    const file = join(folder, 'file');
    writeFileSync(file, '');
    expect(() => parseTuiArgs(['--export-dir', file])).toThrow(`--export-dir ${file} is not a folder`);
    expect(() => parseTuiArgs(['--export-dir', ''])).toThrow('--export-dir must not be empty');
  });

  it('says plainly what is wrong with unknown options and missing values', () => {
    expect(() => parseTuiArgs(['--bogus'])).toThrow(/^unknown option --bogus$/);
    expect(() => parseTuiArgs(['--api-url'])).toThrow(/^option --api-url needs a value/);
    expect(() => parseTuiArgs(['extra'])).toThrow(/^unexpected argument extra$/);
  });
});

describe('where to connect', () => {
  it('runs the embedded demo by default', () => {
    expect(target([])).toEqual({ kind: 'embedded', fresh: false });
    expect(target(['--fresh'])).toEqual({ kind: 'embedded', fresh: true });
  });

  it('derives the beta root from the base root', () => {
    expect(target(['--api-url', 'http://h:1/v4/', '--token', 'T'])).toEqual({ kind: 'remote', apiUrl: 'http://h:1/v4', betaUrl: 'http://h:1/v4beta', token: 'T', profileName: undefined });
    expect(target(['--api-url', 'http://h/v4', '--beta-url', 'http://b/v4beta', '--token', 'T'])).toMatchObject({ betaUrl: 'http://b/v4beta' });
  });

  it('takes VM_API_URL and VM_TOKEN from the environment', () => {
    expect(target([], { VM_API_URL: 'https://api.example/v4', VM_TOKEN: 'tok' })).toMatchObject({ kind: 'remote', apiUrl: 'https://api.example/v4', token: 'tok' });
  });

  it('refuses incomplete or wrong connection settings, never echoing the token', () => {
    expect(() => target(['--api-url', 'http://h/v4'])).toThrow('--api-url needs --token (or VM_TOKEN)');
    expect(() => target(['--token', 'secret-value'])).toThrow('--token and --beta-url need --api-url');
    expect(() => target(['--api-url', 'http://h/v3', '--token', 'secret-value'])).toThrow(/ending in \/v4/);
    expect(() => target(['--api-url', 'ftp://h/v4', '--token', 'secret-value'])).toThrow(/http or https/);
    expect(() => target(['--api-url', 'http://h/v4', '--token', 'secret-value', '--fresh'])).toThrow(/embedded demo account only/);
    try {
      target(['--api-url', 'nope', '--token', 'secret-value']);
    } catch (err) {
      expect((err as Error).message).not.toContain('secret-value');
    }
  });
});

describe('profiles', () => {
  it('saves a profile with mode 0600 and uses it; flags override it', () => {
    const file = join(dir(), 'sub', 'config.json');
    expect(target(['--api-url', 'http://h/v4', '--token', 'T1', '--save-profile', 'prod'], {}, file)).toMatchObject({ profileName: 'prod' });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ profiles: { prod: { apiUrl: 'http://h/v4', token: 'T1' } } });
    expect(target(['--profile', 'prod'], {}, file)).toEqual({ kind: 'remote', apiUrl: 'http://h/v4', betaUrl: 'http://h/v4beta', token: 'T1', profileName: 'prod' });
    expect(target(['--profile', 'prod', '--token', 'T2'], {}, file)).toMatchObject({ token: 'T2' });
    saveProfile(file, 'stage', { apiUrl: 'http://s/v4', betaUrl: 'http://s/beta', token: 'T3' });
    expect(target(['--profile', 'stage'], {}, file)).toMatchObject({ betaUrl: 'http://s/beta' });
  });

  it('names an unknown profile and the known ones', () => {
    const file = join(dir(), 'config.json');
    saveProfile(file, 'prod', { apiUrl: 'http://h/v4', token: 'T' });
    expect(() => target(['--profile', 'dev'], {}, file)).toThrow(`no profile "dev" in ${file} (profiles: prod)`);
  });

  it('a malformed config file names the file and the problem', () => {
    const file = join(dir(), 'config.json');
    writeFileSync(file, '{"profiles": {');
    expect(() => loadConfig(file)).toThrow(ConfigError);
    expect(() => loadConfig(file)).toThrow(new RegExp(`^config file ${file} is not valid JSON`));
    writeFileSync(file, JSON.stringify({ profiles: { prod: { apiUrl: 'http://h/v4' } } }));
    expect(() => loadConfig(file)).toThrow(`config file ${file}: profiles.prod.token must be a non-empty string`);
    writeFileSync(file, '[]');
    expect(() => loadConfig(file)).toThrow(/the top level must be an object/);
  });
});
