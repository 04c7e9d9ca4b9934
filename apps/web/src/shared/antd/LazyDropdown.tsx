import type { Dropdown as AntDropdown, DropdownProps } from 'antd';
import {
  cloneElement,
  lazy,
  useCallback,
  Suspense,
  useEffect,
  useState,
  type MouseEvent,
  type ReactElement,
  type Ref,
} from 'react';
import { afterFirstChart } from '../firstChart';

type DropdownType = typeof AntDropdown;
/** The Dropdown once its code is here: triggers drawn from then on come with it at once. */
let Loaded: DropdownType | null = null;

/** Loads the Dropdown's code (the tests ask for it up front). */
export function loadDropdown(): Promise<DropdownType> {
  return import('./dropdown').then((m) => (Loaded = m.Dropdown));
}
const LazyLoaded = lazy(() => loadDropdown().then((Dropdown) => ({ default: Dropdown })));

/**
 * What happened to the trigger drawn alone: `pressed`, a press on it, which is then not
 * swapped before its click (which loads the menu); `refocus`, it had the focus when clicked.
 */
class TriggerUse {
  pressed = false;
  refocus = false;
  press(): void {
    this.pressed = true;
  }
  click(focused: boolean): void {
    this.pressed = false;
    this.refocus = focused;
  }
  /** True once after a click on the focused trigger. */
  takeRefocus(): boolean {
    const refocus = this.refocus;
    this.refocus = false;
    return refocus;
  }
}

type TriggerProps = {
  ref?: Ref<HTMLElement>;
  onClick?: (event: MouseEvent) => void;
  onPointerDown?: () => void;
};

/**
 * antd's Dropdown on a click trigger whose code (the Dropdown and its Menu) is not in the
 * first load: the trigger alone is drawn until then, exactly as it looks with the menu.
 * The code is asked for after the first drawn chart (shared/firstChart.ts), or at the
 * trigger's first click, which then opens the menu as soon as it is there (the trigger keeps
 * the focus). The menu is open while `open` (controlled here).
 */
export function LazyDropdown({
  children,
  onOpenChange,
  ...props
}: Omit<DropdownProps, 'children' | 'open' | 'trigger'> & {
  children: ReactElement<TriggerProps>;
}) {
  const [wanted, setWanted] = useState(Loaded !== null);
  const [open, setOpen] = useState(false);
  const [use] = useState(() => new TriggerUse());
  useEffect(() => {
    if (wanted) return;
    let cancelled = false;
    void afterFirstChart().then(() => {
      if (!cancelled && !use.pressed) setWanted(true);
    });
    return () => {
      cancelled = true;
    };
  }, [wanted, use]);
  // The trigger drawn alone had the focus when clicked: the one in the Dropdown takes it.
  const attach = useCallback(
    (el: HTMLElement | null) => {
      if (el && use.takeRefocus()) el.focus();
    },
    [use],
  );

  const firstClick = (event: MouseEvent) => {
    use.click(document.activeElement === event.currentTarget);
    setWanted(true);
    setOpen(true);
  };
  const alone = cloneElement(children, {
    onPointerDown: () => use.press(),
    onClick: firstClick,
  });
  if (!wanted) return alone;
  // Always the same element tree once wanted: switching to the Dropdown itself when its code
  // is here would draw the trigger anew at the next render (the click that opens the menu),
  // and the trigger would lose the focus. Once loaded, LazyLoaded draws at once.
  const dropdown = (
    <LazyLoaded
      {...props}
      trigger={['click']}
      open={open}
      onOpenChange={(next, info) => {
        setOpen(next);
        onOpenChange?.(next, info);
      }}
    >
      {cloneElement(children, { ref: attach })}
    </LazyLoaded>
  );
  return <Suspense fallback={alone}>{dropdown}</Suspense>;
}
