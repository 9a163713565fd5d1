// First: on a Node.js too old, one line says which it needs, before anything that would fail on it loads.
import './boot/node-version.js';
import { runTui } from './app/run.js';
import { loadService } from './boot/parts.js';
import { visible } from './app/visible.js';

// Each command loads only what it needs: the terminal UI against a remote API never loads the service.
async function main(args: string[]): Promise<number> {
  if (args[0] === 'serve') return (await loadService()).runServe(args.slice(1));
  if (args[0] === 'import') return (await loadService()).runImport(args.slice(1));
  return runTui(args);
}

const argv = process.argv.slice(2);
main(argv).then(
  (code) => {
    process.exitCode = code;
  },
  async (err: unknown) => {
    const known = (argv[0] === 'serve' || argv[0] === 'import') && err instanceof (await loadService()).UsageError;
    process.stderr.write(`vmtui: ${visible(err instanceof Error ? err.message : String(err), true)}\n${known ? `Run 'vmtui ${argv[0] === 'import' ? 'import' : 'serve'} --help' for usage.\n` : ''}`);
    process.exitCode = known ? 2 : 1;
  },
);
