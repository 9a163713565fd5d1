import { ApiError } from './errors.js';

/** Request bodies: deeper than any resource of the API (a firewall's rules are 5), far below what overflows a recursive reader. */
export const BODY_MAX_DEPTH = 32;

export interface JsonSource {
  /** How the reason names the document: "The request body", "X-Filter". */
  name: string;
  maxDepth: number;
  /** The error's field when the problem's own path should not be named (a header is one field). */
  field?: string;
}

/** A lone surrogate, in a regex that reads by code point: paired surrogates form one and do not match. */
const LONE_SURROGATE = /\p{Cs}/u;

interface Node {
  value: unknown;
  depth: number;
  parent: Node | null;
  key: string;
}

const pathOf = (node: Node): string => {
  const keys: string[] = [];
  for (let n: Node | null = node; n?.parent; n = n.parent) keys.push(n.key);
  return keys.reverse().join('.');
};

/**
 * Parses JSON sent by a client and holds it to what every reader of it may
 * assume: nesting at most `maxDepth` deep (JSON.parse does not recurse, but
 * JSON.stringify, SQLite's JSON and any recursive check do, and overflow the
 * stack), no key named `__proto__` (a copy by assignment turns it into the
 * copy's prototype), and no lone UTF-16 surrogate in a key or a string (it has
 * no UTF-8 form: URLs, SQLite and every client choke on it). Anything else is
 * refused with a 400 naming the rule, never handed on.
 */
export function parseJsonInput(text: string, source: JsonSource): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ApiError(400, [{ ...(source.field ? { field: source.field } : {}), reason: `${source.name} is not valid JSON` }]);
  }
  /** The reason, naming the offending value's path when there is one (a header is one field: no path). */
  const refuse = (reason: string, node?: Node) => {
    const path = node && !source.field ? pathOf(node) : '';
    const field = source.field ?? path;
    return new ApiError(400, [{ ...(field ? { field } : {}), reason: path ? `${source.name}: ${path} ${reason}` : `${source.name} ${reason}` }]);
  };
  // Iterative, so a document nested too deep is measured without recursing into it.
  const stack: Node[] = [{ value: parsed, depth: 1, parent: null, key: '' }];
  for (let node = stack.pop(); node; node = stack.pop()) {
    const { value } = node;
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value)) throw refuse('holds a lone UTF-16 surrogate, which is not valid Unicode', node);
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (node.depth > source.maxDepth) throw refuse(`is nested deeper than ${source.maxDepth} levels`);
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) stack.push({ value: value[i], depth: node.depth + 1, parent: node, key: String(i) });
      continue;
    }
    for (const [key, child] of Object.entries(value)) {
      // The key itself is not echoed: it is the part that cannot be written out.
      if (LONE_SURROGATE.test(key)) throw refuse('has a key with a lone UTF-16 surrogate, which is not valid Unicode', node.parent ? node : undefined);
      const childNode = { value: child, depth: node.depth + 1, parent: node, key };
      if (key === '__proto__') throw refuse('is a key name that is not allowed', childNode);
      stack.push(childNode);
    }
  }
  return parsed;
}
