import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A bad command line: the message says what is wrong; the exit code is 2. */
export class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;

/** Node's parse errors, in a sentence without the hints meant for other programs. */
function plainParseError(err: { code?: string; message: string }): UsageError {
  // Node names an option with a short form as '-h, --help'.
  const option = /'(?:-\w, )?(-[^' ]*)/.exec(err.message)?.[1];
  if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return new UsageError(`unknown option ${option ?? err.message}`);
  if (err.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    if (option && /does not take an argument/.test(err.message)) return new UsageError(`option ${option} takes no value`);
    return new UsageError(option ? `option ${option} needs a value` : err.message);
  }
  if (err.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return new UsageError(`unexpected argument ${/'([^']*)'/.exec(err.message)?.[1] ?? ''}`.trim());
  return new UsageError(err.message);
}

/**
 * The options of a command line, for every command (the UI, serve, import):
 * one parser, so one mistake reads the same whichever command it was made in.
 */
export function readOptions<const O extends Options>(argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values;
  } catch (err) {
    throw plainParseError(err as { code?: string; message: string });
  }
}
