import type { ParamValues } from '@ct/domain';

/** A trial's values as one line: `fast=5, slow=30`. */
export function paramsText(values: ParamValues): string {
  return Object.entries(values)
    .map(([name, value]) => `${name}=${String(value)}`)
    .join(', ');
}
