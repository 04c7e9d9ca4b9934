import { describe, expect, it } from 'vitest';
import { inPane, pastSlop, reachOf, REACH_PX } from './gestures';

describe('the pointer on drawings', () => {
  it('reaches further with a finger than with a mouse', () => {
    expect(reachOf('mouse')).toBe(REACH_PX.mouse);
    expect(reachOf('touch')).toBe(REACH_PX.touch);
    expect(reachOf('pen')).toBe(REACH_PX.touch);
  });

  it('counts a press as a drag from the click slop on', () => {
    expect(pastSlop({ x: 0, y: 0 }, { x: 3, y: 0 })).toBe(false);
    expect(pastSlop({ x: 0, y: 0 }, { x: 3, y: 3 })).toBe(true);
  });

  it('takes presses inside the price pane only', () => {
    const size = { width: 800, height: 400 };
    expect(inPane({ x: 0, y: 400 }, size)).toBe(true);
    expect(inPane({ x: 801, y: 10 }, size)).toBe(false);
    expect(inPane({ x: 10, y: -1 }, size)).toBe(false);
  });
});
