import { useEffect, useState } from 'react';

/** How long a background refresh runs before it says so. */
export const NOTICEABLE_MS = 1000;

/**
 * Whether `active` has stayed true for `ms`: a background refresh says
 * "refreshing…" only when it is slow enough to notice. One that answers at
 * once would otherwise flash the word on and off at every refresh, two
 * redraws each time, and an idle screen would never be still.
 */
export function useLasting(active: boolean, ms: number): boolean {
  const [lasted, setLasted] = useState(false);
  useEffect(() => {
    if (!active) return;
    const timer = setTimeout(() => setLasted(true), ms);
    return () => {
      clearTimeout(timer);
      setLasted(false);
    };
  }, [active, ms]);
  return active && lasted;
}
