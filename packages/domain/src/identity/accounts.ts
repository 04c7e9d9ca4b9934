/** Level tag colours, cycling (spec section 2, Profile). */
export const LEVEL_COLOURS = ['gray', 'blue', 'green', 'orange', 'red'] as const;
export type LevelColour = (typeof LEVEL_COLOURS)[number];

/** Colour of the 'Level n' tag: level 1 is gray, 2 blue, … 6 gray again; 0 and below cycle back. */
export function levelColour(level: number): LevelColour {
  const n = LEVEL_COLOURS.length;
  const index = (((Math.trunc(level) - 1) % n) + n) % n;
  return LEVEL_COLOURS[index] ?? 'gray';
}

/**
 * Our names of account types 1, 2 and 3 (the spec maps them without naming them);
 * any other type shows as 'Type n'.
 */
export const ACCOUNT_TYPE_NAMES: Readonly<Record<number, string>> = {
  1: 'Standard',
  2: 'Professional',
  3: 'VIP',
};

/** Display name of an account type. */
export function accountTypeName(type: number): string {
  return ACCOUNT_TYPE_NAMES[type] ?? `Type ${type}`;
}
