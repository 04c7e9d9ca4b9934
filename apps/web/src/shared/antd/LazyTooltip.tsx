import type { Tooltip as AntTooltip, TooltipProps } from 'antd';
import { lazy, Suspense, useEffect, useState, type ReactElement } from 'react';
import { afterFirstChart } from '../firstChart';
import './tooltip.css';

type TooltipType = typeof AntTooltip;
/** The Tooltip once its code is here: tips drawn from then on come with it at once. */
let Loaded: TooltipType | null = null;

/** Loads the Tooltip's code (the tests ask for it up front). */
export function loadTooltip(): Promise<TooltipType> {
  return import('./tooltip').then((m) => (Loaded = m.Tooltip));
}
const LazyLoaded = lazy(() => loadTooltip().then((Tooltip) => ({ default: Tooltip })));

/**
 * antd's Tooltip on a first-screen control whose code is not in the first load: the control
 * alone is drawn (its accessible name carries the same words) until the Tooltip's code is
 * asked for after the first drawn chart (shared/firstChart.ts) or at the first pointer over
 * it, which then shows the tip as soon as it is there.
 */
export function LazyTooltip({
  children,
  ...props
}: Omit<TooltipProps, 'children'> & { children: ReactElement }) {
  const [wanted, setWanted] = useState(Loaded !== null);
  // asked for by a pointer over the control: the tip shows at once when it is drawn
  const [hovered, setHovered] = useState(false);
  useEffect(() => {
    if (wanted) return;
    let cancelled = false;
    void afterFirstChart().then(() => {
      if (!cancelled) setWanted(true);
    });
    return () => {
      cancelled = true;
    };
  }, [wanted]);
  // The control alone, until the Tooltip's code is here (also while it loads): the tests
  // wait for no such wrapper to be left before they measure the controls, which are drawn
  // anew inside the Tooltip once.
  const waiting = (
    <span
      className="ct-tip-wait"
      onPointerEnter={() => {
        setHovered(true);
        setWanted(true);
      }}
    >
      {children}
    </span>
  );
  if (!wanted) return waiting;
  return (
    <Suspense fallback={waiting}>
      <LazyLoaded {...props} {...(hovered ? { defaultOpen: true } : {})}>
        {children}
      </LazyLoaded>
    </Suspense>
  );
}
