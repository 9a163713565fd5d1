import type { ReactNode } from 'react';
import { Text as InkText, Transform, type TextProps } from 'ink';
import { visible } from '../app/visible.js';
import { fit } from './cells.js';

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

/**
 * One line `width` columns wide whose text changes all the time (a chart's
 * rows and figures). Ink remembers the size of every distinct text it lays
 * out for as long as the app runs, and a chart makes new ones at every
 * refresh: this lays out a blank of the width instead (one entry per width)
 * and puts the line, gated and fitted to the width, in its place as the frame
 * is drawn, in the blank's style.
 */
export function FixedLine({ text, width, ...props }: Omit<TextProps, 'children' | 'wrap'> & { text: string; width: number }) {
  if (width <= 0) return null;
  const blank = ' '.repeat(width);
  const line = fit(text, width);
  return (
    <Transform transform={(drawn) => drawn.replace(blank, () => line)}>
      <InkText {...props}>{blank}</InkText>
    </Transform>
  );
}
