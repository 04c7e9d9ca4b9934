import { useCallback, useEffect, useRef, useState } from 'react';

/** Copied / Applied feedback lasts this long (spec section 9). */
export const FEEDBACK_MS = 1500;

/** A flag that turns on when triggered and off `ms` later (a new trigger restarts it). */
export function useFlash(ms = FEEDBACK_MS): [boolean, () => void] {
  const [on, setOn] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const trigger = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    setOn(true);
    timer.current = setTimeout(() => {
      timer.current = null;
      setOn(false);
    }, ms);
  }, [ms]);
  return [on, trigger];
}
