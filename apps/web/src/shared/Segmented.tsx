import { useId, type ReactNode } from 'react';
import './segmented.css';

export type SegmentedOption<T extends string | number> = {
  value: T;
  label: ReactNode;
  /** The hover title of the segment (also its accessible name when the label is an icon). */
  title?: string;
};

/**
 * A row of segments of which one is chosen: antd's Segmented (size small) as the first screen
 * draws it — radio inputs in a radiogroup, so arrows move the choice and a click chooses —
 * without antd's Segmented and the Tooltip it brings, which are not in the first load.
 */
export function Segmented<T extends string | number>({
  value,
  onChange,
  options,
  className,
  'aria-label': ariaLabel,
}: {
  value: T;
  onChange: (value: T) => void;
  options: readonly SegmentedOption<T>[];
  className?: string;
  'aria-label'?: string;
}) {
  const name = useId();
  return (
    <div
      role="radiogroup"
      aria-label={ariaLabel}
      className={['ct-segmented', className].filter(Boolean).join(' ')}
    >
      {options.map((option) => {
        const checked = option.value === value;
        return (
          <label
            key={String(option.value)}
            className={
              checked ? 'ct-segmented-item ct-segmented-item-selected' : 'ct-segmented-item'
            }
            title={option.title}
          >
            <input
              type="radio"
              className="ct-segmented-input"
              name={name}
              checked={checked}
              onChange={() => onChange(option.value)}
            />
            <span className="ct-segmented-label">{option.label}</span>
          </label>
        );
      })}
    </div>
  );
}
