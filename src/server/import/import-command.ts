import { existsSync } from 'node:fs';
import { readOptions, UsageError } from '../../command-line.js';
import { isDataFileError, keyFileOf } from '../data-file.js';
import { Simulation } from '../sim.js';
import { Store } from '../store.js';
import { DEFAULT_OBJECTS, importAccount, unfinishedImport, IMPORT_META, type ImportReport } from './import-account.js';
import { Source } from './source.js';
import { sourceRoots } from './source-roots.js';

export const IMPORT_USAGE = `Usage: vmtui import --from URL [--token T] --data FILE [--beta-url URL]
                    [--objects N] [--resume]

Reads an account through the API (GET only) and writes it as a data file that
'vmtui serve --data FILE' serves: the same ids, labels, relations, states and
timestamps. Tokens get new values, printed once; secrets the API does not show
(TLS private keys, passwords, two-factor secrets) are not copied.
  --from      the source's base root, ending in /v4 (or VM_API_URL)
  --token     a token of the source account (or VM_TOKEN); what its scopes do
              not read is skipped and listed at the end
  --beta-url  the beta root (default: the base root with /v4beta)
  --data      the data file to write (it must not exist; its key file FILE.key
              is made beside it)
  --objects   object names read per bucket (default 1000)
  --resume    continue an import into FILE that stopped before it finished`;

const MAX_OBJECTS = 1_000_000;

export function parseImportArgs(argv: string[], env: NodeJS.ProcessEnv) {
  const values = readOptions(argv, {
    from: { type: 'string' },
    token: { type: 'string' },
    'beta-url': { type: 'string' },
    data: { type: 'string' },
    objects: { type: 'string' },
    resume: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return { help: true as const };
  const from = values.from ?? env.VM_API_URL;
  if (!from) throw new UsageError('--from is required: the base root of the account to read, e.g. https://host/v4');
  const roots = sourceRoots(from, values['beta-url']);
  if ('problem' in roots) throw new UsageError(roots.problem);
  const { base, beta } = roots;
  const token = values.token ?? env.VM_TOKEN;
  if (!token) throw new UsageError('--token (or VM_TOKEN) is required');
  if (!/^[\x21-\x7e]{1,256}$/.test(token)) throw new UsageError('--token must be 1..256 printable characters without spaces');
  if (!values.data || values.data.trim() === '' || values.data === ':memory:') throw new UsageError('--data must name the data file to write');
  const objects = values.objects === undefined ? DEFAULT_OBJECTS : Number(values.objects);
  if (!/^\d{1,7}$/.test(values.objects ?? '0') || objects > MAX_OBJECTS) throw new UsageError(`--objects must be 0..${MAX_OBJECTS}, not "${values.objects}"`);
  return { help: false as const, base, beta, token, data: values.data, objects, resume: values.resume! };
}

const n = (v: number) => v.toLocaleString('en-US');

/** What the import could not bring, for stderr: skipped areas with the scope that reads them, fields and values 4.83.1 cannot hold, secrets left behind. */
export function reportLines(report: ImportReport): string[] {
  const lines: string[] = [];
  for (const s of report.skipped) lines.push(`skipped ${s.area}: ${s.scope ? `the token lacks ${s.scope} (${s.reason})` : s.reason}`);
  const dropped = [...report.unheld.dropped];
  if (dropped.length > 0) {
    const total = dropped.reduce((sum, [, c]) => sum + c, 0);
    lines.push(`${n(total)} fields of a later release dropped: ${dropped.map(([path, c]) => `${path} (${n(c)})`).join(', ')}`);
  }
  const values = [...report.unheld.unknownValues];
  if (values.length > 0) {
    const total = values.reduce((sum, [, c]) => sum + c, 0);
    lines.push(`${n(total)} values outside 4.83.1's enums kept as read: ${values.map(([path, c]) => `${path} (${n(c)})`).join(', ')}`);
  }
  for (const [what, c] of report.notCopied) lines.push(`not copied: ${n(c)} ${what}`);
  return lines;
}

/** `vmtui import`: exit 0 when anything was imported, 1 when nothing could be read, 2 for bad arguments (thrown as UsageError). */
export async function runImport(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const opts = parseImportArgs(argv, env);
  if (opts.help) {
    process.stdout.write(`${IMPORT_USAGE}\n`);
    return 0;
  }
  const exists = existsSync(opts.data);
  if (exists && !opts.resume) {
    process.stderr.write(`vmtui import: ${opts.data} exists: the import writes a new file only (--resume continues an unfinished import into it)\n`);
    return 1;
  }
  if (!exists && existsSync(keyFileOf(opts.data))) {
    process.stderr.write(`vmtui import: ${keyFileOf(opts.data)} exists without its data file: remove it or choose another --data\n`);
    return 1;
  }
  let store: Store;
  try {
    store = new Store(opts.data);
  } catch (err) {
    if (!isDataFileError(err)) throw err;
    process.stderr.write(`vmtui import: ${err.message}\n`);
    return 1;
  }
  try {
    if (exists) {
      const from = unfinishedImport(store);
      if (from === undefined) {
        const what = store.getMeta(IMPORT_META) ? 'a finished import' : 'not an import';
        process.stderr.write(`vmtui import: ${opts.data} is ${what}: --resume continues only an unfinished import\n`);
        return 1;
      }
      if (from !== opts.base) {
        process.stderr.write(`vmtui import: ${opts.data} is an import from ${from}, not ${opts.base}\n`);
        return 1;
      }
    }
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    const source = new Source({
      base: opts.base,
      beta: opts.beta,
      token: opts.token,
      signal: stop.signal,
      onWait: (seconds, path) => process.stderr.write(`rate limited on ${path}: waiting ${seconds} s\n`),
    });
    const live = process.stderr.isTTY === true;
    let report: ImportReport;
    try {
      report = await importAccount(store, new Simulation(store, 'realistic'), source, opts.base, {
        objects: opts.objects,
        progress: (area, done, total, final) => {
          if (final || live) process.stderr.write(`${live ? '\r\x1b[K' : ''}${area} ${n(done)}/${n(Math.max(done, total))}${final || !live ? '\n' : ''}`);
        },
      });
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
    for (const line of reportLines(report)) process.stderr.write(`${line}\n`);
    if (report.records === 0) {
      process.stderr.write(`vmtui import: nothing could be read from ${opts.base}\n`);
      return 1;
    }
    const unfinished = report.interrupted ? ` It stopped before the end: run again with --resume to continue.` : '';
    process.stdout.write(
      [
        `Imported ${n(report.records)} records from ${opts.base} into ${opts.data} (key file ${keyFileOf(opts.data)}); the account's clock starts at ${report.clock}.${unfinished}`,
        `  owner token (scope *):  ${report.token}`,
        report.restrictedToken ? `  restricted user token:  ${report.restrictedToken}` : '',
        '  These tokens are shown only now; the file stores them hashed. Serve it with:',
        `  vmtui serve --data ${opts.data} --token <the owner token above>`,
        '',
      ]
        .filter((l) => l !== '')
        .join('\n') + '\n',
    );
    return 0;
  } finally {
    store.close();
  }
}
