import type { ReactNode } from 'react';
import { Text as InkText, type TextProps } from 'ink';
import { visible } from '../app/visible.js';

const gate = (node: ReactNode): ReactNode => (typeof node === 'string' ? visible(node, true) : Array.isArray(node) ? node.map(gate) : node);

/**
 * Ink's <Text>, its strings passed through the gate (src/app/visible.ts). It
 * is the app's only way to draw a string (Ink draws none outside a <Text>),
 * and test/app/visible-gate.test.ts fails when a module draws with Ink's own,
 * so no view can send a server's text to the terminal unread.
 */
export function Text({ children, ...props }: TextProps) {
  return <InkText {...props}>{gate(children)}</InkText>;
}
