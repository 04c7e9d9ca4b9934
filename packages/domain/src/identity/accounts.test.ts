import { describe, expect, it } from 'vitest';
import { accountTypeName, levelColour } from './accounts.ts';

describe('levelColour', () => {
  it('cycles gray, blue, green, orange, red from level 1', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(levelColour)).toEqual([
      'gray',
      'blue',
      'green',
      'orange',
      'red',
      'gray',
      'blue',
    ]);
    expect(levelColour(0)).toBe('red');
  });
});

describe('accountTypeName', () => {
  it('maps types 1, 2, 3 and shows others as Type n', () => {
    expect(accountTypeName(1)).toBe('Standard');
    expect(accountTypeName(2)).toBe('Professional');
    expect(accountTypeName(3)).toBe('VIP');
    expect(accountTypeName(7)).toBe('Type 7');
  });
});
