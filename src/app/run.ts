/** The terminal UI's entry; built out by the TUI work. */
export async function runTui(_argv: string[]): Promise<number> {
  process.stderr.write('vmtui: the terminal UI is not built yet; use `vmtui serve`.\n');
  return 1;
}
