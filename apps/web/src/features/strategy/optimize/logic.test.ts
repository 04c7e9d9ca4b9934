import { describe, expect, it } from 'vitest';
import { shade } from './logic';

describe('shade', () => {
  it('places a score between the worst (0) and the best (1)', () => {
    expect(shade(5, 0, 10)).toBe(0.5);
    expect(shade(10, 0, 10)).toBe(1);
  });

  it('reads scores that differ only by float noise as all equal', () => {
    // 0.1 + 0.2 and 0.3 are the same score written two ways
    expect(shade(0.3, 0.3, 0.1 + 0.2)).toBe(0.5);
  });

  it('has no shade without a score', () => {
    expect(shade(null, 0, 1)).toBeNull();
  });
});
