import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The service's modules form no import circle. A circle ties every module on
 * it together: a core piece that reached an area (accounts.ts once took the
 * object data root from the object storage area) pulled 24 files into one,
 * so none could be read, loaded or tested without the others. Type-only
 * imports count: they tie modules together for the reader and the compiler
 * just the same.
 */

const SERVER = resolve(import.meta.dirname, '../../src/server');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The files a module imports or re-exports from this folder, by the compiler's own reading of it. */
function localImports(file: string, files: Set<string>): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .filter(({ fileName }) => fileName.startsWith('.'))
    .map(({ fileName }) => resolve(dirname(file), fileName.replace(/\.js$/, '.ts')))
    .filter((target) => files.has(target));
}

/** The import circles of a graph: its strongly connected parts of more than one file (Tarjan), and a file importing itself. */
function importCircles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const part: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      part.push(member);
    } while (member !== file);
    if (part.length > 1 || graph.get(file)?.includes(file)) circles.push(part.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return circles;
}

describe('the service imports', () => {
  it('finds a circle, and none in a chain', () => {
    const circle = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
    ]);
    expect(importCircles(circle)).toEqual([['a', 'b', 'c']]);
    expect(importCircles(new Map([['a', ['b']], ['b', ['c']], ['c', []]]))).toEqual([]);
    expect(importCircles(new Map([['a', ['a']]]))).toEqual([['a']]);
  });

  it('reads every import form as the compiler does', () => {
    const files = sourceFiles(SERVER);
    const accounts = join(SERVER, 'accounts.ts');
    // route.ts takes only types from accounts.ts: they count.
    expect(localImports(join(SERVER, 'route.ts'), new Set(files))).toContain(accounts);
    // index.ts only re-exports.
    expect(localImports(join(SERVER, 'index.ts'), new Set(files))).toContain(join(SERVER, 'service.ts'));
  });

  it('form no circle in src/server', () => {
    const files = sourceFiles(SERVER);
    const known = new Set(files);
    const graph = new Map(files.map((file) => [file, localImports(file, known)]));
    const circles = importCircles(graph).map((part) => part.map((file) => relative(SERVER, file)));
    expect(circles).toEqual([]);
  });
});
