// Each command loads only what it needs: the terminal UI against a remote API never loads the service.
async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'serve') return (await import('./server/serve-command.js')).runServe(argv.slice(1));
  return (await import('./app/run.js')).runTui(argv);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  async (err: unknown) => {
    const { UsageError } = await import('./server/serve-command.js');
    const known = err instanceof UsageError || (err as { code?: string })?.code?.startsWith('ERR_PARSE_ARGS');
    process.stderr.write(`vmtui: ${err instanceof Error ? err.message : String(err)}\n${known ? "Run 'vmtui --help' or 'vmtui serve --help' for usage.\n" : ''}`);
    process.exitCode = known ? 2 : 1;
  },
);
