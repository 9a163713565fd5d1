import { useEffect, useState } from 'react';
import { Text } from './Text.js';

const FRAMES = '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏';

/** A spinner and a text; it ticks only while mounted, i.e. while something loads. */
export function Spinner({ label }: { label: string }) {
  const [frame, setFrame] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setFrame((f) => (f + 1) % FRAMES.length), 120);
    return () => clearInterval(timer);
  }, []);
  return (
    <Text wrap="truncate-end">
      <Text color="cyan">{FRAMES[frame]}</Text> {label}
    </Text>
  );
}
