/**
 * What `serve` means in the `vmtui:dev` image: a service for a test suite in
 * another container or on the host. It listens on every address at port
 * 4000, on a throwaway account, unless the arguments say otherwise, and
 * always writes its ready file, which the image's health check reads.
 */

export const READY_FILE = '/tmp/vmtui-ready.json';

const CONTAINER_DEFAULTS: [flag: string, value: string][] = [
  ['--host', '0.0.0.0'],
  ['--port', '4000'],
  ['--data', ':memory:'],
];

/** The arguments `serve` runs with: the container's defaults for what they leave out, and the ready file. */
export function containerServeArgs(args: string[]): string[] {
  const given = (flag: string) => args.some((a) => a === flag || a.startsWith(`${flag}=`));
  if (given('--help') || given('-h')) return args;
  const added = CONTAINER_DEFAULTS.filter(([flag]) => !given(flag)).flat();
  return [...args, ...added, ...(given('--ready-file') ? [] : ['--ready-file', READY_FILE])];
}

