import {
  DRAWING_FILL_OPACITIES,
  DRAWING_LINE_STYLES,
  DRAWING_PALETTE,
  DRAWING_WIDTHS,
  rectangleFillOf,
  type DrawingKind,
  type DrawingLineStyle,
  type DrawingStyle,
} from '@ct/domain';
import { Button } from 'antd';
import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { chart as messages } from '../../../i18n/defaults/chart';

/*
 * The selected drawing's style controls, TradingView-like: one compact button per property
 * (colour, line width, line style and, for a rectangle, the fill) in the selection bar;
 * each opens a small list above the bar. Keyboard: Tab to a button, Enter/Space opens,
 * arrows move, Enter/Space picks, Escape closes (focus back on the button).
 */

const t = messages.drawingStyle;

type Property = 'color' | 'width' | 'line' | 'fill';

type Option<V> = { value: V; label: string; sample: ReactNode };

/** The name a colour is read out with. */
export function colorName(hex: string): string {
  const lower = hex.toLowerCase();
  return t.colors[lower] ?? t.custom(lower);
}

function fillName(opacity: number): string {
  return opacity === 0 ? t.noFill : t.percent(opacity);
}

/** A short line drawn as the option's picture (width and dash as on the chart). */
function LineSample({
  width,
  line,
  color,
}: {
  width: number;
  line: DrawingLineStyle;
  color: string;
}) {
  const dash = line === 'dashed' ? '6 4' : line === 'dotted' ? '1 3' : undefined;
  return (
    <svg className="drawing-style-line" width="24" height="12" viewBox="0 0 24 12" aria-hidden>
      <line
        x1="2"
        y1="6"
        x2="22"
        y2="6"
        stroke={color}
        strokeWidth={width}
        strokeDasharray={dash}
        strokeLinecap={line === 'dotted' ? 'round' : 'butt'}
      />
    </svg>
  );
}

function Swatch({ color, opacity = 1 }: { color: string; opacity?: number }) {
  return (
    <span className="drawing-style-swatch" aria-hidden>
      <span style={{ background: color, opacity }} />
    </span>
  );
}

/** One property: the button showing its value and the list of values it opens. */
function Choice<V extends string | number>({
  property,
  label,
  buttonLabel,
  button,
  options,
  value,
  open,
  setOpen,
  onPick,
}: {
  property: Property;
  label: string;
  buttonLabel: string;
  button: ReactNode;
  options: readonly Option<V>[];
  value: V;
  open: boolean;
  setOpen: (property: Property | null) => void;
  onPick: (value: V) => void;
}) {
  const trigger = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const current = Math.max(
    0,
    options.findIndex((o) => o.value === value),
  );

  useEffect(() => {
    if (!open) return;
    // the open list takes the focus on the chosen value
    const items = list.current?.querySelectorAll<HTMLElement>('[role=option]');
    items?.[current]?.focus();
  }, [open, current]);

  const close = () => {
    setOpen(null);
    trigger.current?.focus();
  };

  const onListKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = [...(list.current?.querySelectorAll<HTMLElement>('[role=option]') ?? [])];
    const focus = Math.max(0, items.indexOf(document.activeElement as HTMLElement));
    const move = (to: number) => {
      const next = (to + items.length) % items.length;
      items[next]?.focus();
    };
    switch (event.key) {
      case 'ArrowRight':
      case 'ArrowDown':
        move(focus + 1);
        break;
      case 'ArrowLeft':
      case 'ArrowUp':
        move(focus - 1);
        break;
      case 'Home':
        move(0);
        break;
      case 'End':
        move(items.length - 1);
        break;
      case 'Enter':
      case ' ': {
        const option = options[focus];
        if (option) onPick(option.value);
        close();
        break;
      }
      case 'Escape':
        close();
        break;
      case 'Tab':
        setOpen(null);
        return;
      default:
        return;
    }
    // the chart's own keys (Escape unselects, Delete deletes) stay out of the list
    event.preventDefault();
    event.stopPropagation();
  };

  return (
    <span className="drawing-style-choice">
      <Button
        ref={trigger}
        size="small"
        type="text"
        className="drawing-style-button"
        aria-label={buttonLabel}
        title={buttonLabel}
        aria-haspopup="listbox"
        aria-expanded={open}
        onClick={() => setOpen(open ? null : property)}
      >
        {button}
      </Button>
      {open && (
        <div
          ref={list}
          className={`drawing-style-list drawing-style-list-${property}`}
          role="listbox"
          aria-label={label}
          onKeyDown={onListKey}
        >
          {options.map((option, i) => (
            <div
              key={String(option.value)}
              role="option"
              aria-selected={option.value === value}
              aria-label={option.label}
              title={option.label}
              tabIndex={i === current ? 0 : -1}
              className="drawing-style-option"
              onClick={() => {
                onPick(option.value);
                close();
              }}
            >
              {option.sample}
            </div>
          ))}
        </div>
      )}
    </span>
  );
}

/** The style buttons of the selected drawing; `onChange` gets the changed property. */
export function StyleBar({
  kind,
  style,
  onChange,
}: {
  kind: DrawingKind;
  style: DrawingStyle;
  onChange: (change: Partial<DrawingStyle>) => void;
}) {
  const [open, setOpen] = useState<Property | null>(null);
  const root = useRef<HTMLSpanElement>(null);
  const fill = rectangleFillOf(style);
  const color = style.color.toLowerCase();
  const palette: string[] = [...DRAWING_PALETTE];
  // a colour saved by another client shows as a choice of its own
  if (!palette.includes(color)) palette.push(color);

  return (
    <span
      ref={root}
      className="drawing-style-bar"
      onBlur={(event) => {
        // focus left the bar (a click elsewhere, Tab out): the open list closes
        if (!root.current?.contains(event.relatedTarget as Node | null)) setOpen(null);
      }}
    >
      <Choice
        property="color"
        label={t.color}
        buttonLabel={t.colorNamed(colorName(style.color))}
        button={<Swatch color={style.color} />}
        options={palette.map((hex) => ({
          value: hex,
          label: colorName(hex),
          sample: <Swatch color={hex} />,
        }))}
        value={color}
        open={open === 'color'}
        setOpen={setOpen}
        onPick={(hex) => onChange({ color: hex })}
      />
      <Choice
        property="width"
        label={t.width}
        buttonLabel={t.widthNamed(style.width)}
        button={
          <>
            <LineSample width={style.width} line="solid" color="currentColor" />
            <span className="drawing-style-value">{style.width}</span>
          </>
        }
        options={DRAWING_WIDTHS.map((width) => ({
          value: width,
          label: t.px(width),
          sample: (
            <>
              <LineSample width={width} line="solid" color="currentColor" />
              <span>{t.px(width)}</span>
            </>
          ),
        }))}
        value={style.width}
        open={open === 'width'}
        setOpen={setOpen}
        onPick={(width) => onChange({ width })}
      />
      <Choice
        property="line"
        label={t.line}
        buttonLabel={t.lineNamed(t.lines[style.line])}
        button={<LineSample width={2} line={style.line} color="currentColor" />}
        options={DRAWING_LINE_STYLES.map((line) => ({
          value: line,
          label: t.lines[line],
          sample: (
            <>
              <LineSample width={2} line={line} color="currentColor" />
              <span>{t.lines[line]}</span>
            </>
          ),
        }))}
        value={style.line}
        open={open === 'line'}
        setOpen={setOpen}
        onPick={(line) => onChange({ line })}
      />
      {kind === 'rectangle' && (
        <Choice
          property="fill"
          label={t.fill}
          buttonLabel={t.fillNamed(fillName(fill))}
          button={<Swatch color={style.color} opacity={Math.min(1, fill * 2)} />}
          options={DRAWING_FILL_OPACITIES.map((opacity) => ({
            value: opacity,
            label: fillName(opacity),
            sample: (
              <>
                <Swatch color={style.color} opacity={opacity} />
                <span>{fillName(opacity)}</span>
              </>
            ),
          }))}
          value={fill}
          open={open === 'fill'}
          setOpen={setOpen}
          onPick={(opacity) => onChange({ fill: opacity })}
        />
      )}
    </span>
  );
}
