import { describe, expect, it } from 'vitest';
import { parseTuiArgs } from '../src/app/args.js';
import { UsageError } from '../src/command-line.js';
import { parseImportArgs } from '../src/server/import/import-command.js';
import { parseServeArgs } from '../src/server/serve-command.js';

/** What each command says of a command line it refuses. */
const COMMANDS = {
  tui: (argv: string[]) => parseTuiArgs(argv),
  serve: (argv: string[]) => parseServeArgs(argv),
  import: (argv: string[]) => parseImportArgs(argv, {}),
};

const said = (parse: (argv: string[]) => unknown, argv: string[]) => {
  try {
    parse(argv);
    return 'accepted';
  } catch (err) {
    return err instanceof UsageError ? err.message : `not a usage error: ${String(err)}`;
  }
};

describe('one parser for every command', () => {
  it.each(Object.keys(COMMANDS) as (keyof typeof COMMANDS)[])('%s says a mistake in the same words as the others', (name) => {
    const parse = COMMANDS[name];
    expect(said(parse, ['--bogus'])).toBe('unknown option --bogus');
    expect(said(parse, ['-x'])).toBe('unknown option -x');
    expect(said(parse, ['extra'])).toBe('unexpected argument extra');
    expect(said(parse, ['--token'])).toBe('option --token needs a value');
    expect(said(parse, ['--help=yes'])).toBe('option --help takes no value');
  });
});
