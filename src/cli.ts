import { runServe, UsageError } from './server/serve-command.js';
import { runTui } from './app/run.js';

async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'serve') return runServe(argv.slice(1));
  return runTui(argv);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    const known = err instanceof UsageError || (err as { code?: string })?.code?.startsWith('ERR_PARSE_ARGS');
    process.stderr.write(`vmtui: ${err instanceof Error ? err.message : String(err)}\n${known ? "Run 'vmtui --help' or 'vmtui serve --help' for usage.\n" : ''}`);
    process.exitCode = known ? 2 : 1;
  },
);
