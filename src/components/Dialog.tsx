import type { ReactNode } from 'react';
import { Box } from 'ink';
import { Text } from './Text.js';

interface Props {
  title: string;
  width: number;
  color?: string;
  children: ReactNode;
}

/** The bordered box dialogs and menus are drawn in. */
export function Dialog({ title, width, color, children }: Props) {
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={color} width={width} paddingX={1} flexShrink={0}>
      <Text bold color={color} wrap="truncate-end">
        {title}
      </Text>
      {children}
    </Box>
  );
}
