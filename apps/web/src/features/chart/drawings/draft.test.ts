import { DEFAULT_DRAWING_STYLE } from '@ct/domain';
import { describe, expect, it } from 'vitest';
import { draftShape, draftSpan, dragDraft, hoverDraft, pressDraft, releaseDraft } from './draft';

const p = (index: number, price = 100) => ({ time: 1000 + index * 60, price, index });

describe('the drawing being drawn', () => {
  it('starts at the press with both points there, and a waiting draft takes the next point', () => {
    const draft = pressDraft(null, 'trend', p(1));
    expect(draft).toEqual({ tool: 'trend', points: [p(1), p(1)], waiting: false });
    expect(pressDraft({ ...draft, waiting: true }, 'trend', p(4)).points).toEqual([p(1), p(4)]);
  });

  it('stretches a two-point tool to the pointer and carries a one-point tool with it', () => {
    expect(dragDraft(pressDraft(null, 'rectangle', p(1)), p(3)).points).toEqual([p(1), p(3)]);
    expect(dragDraft(pressDraft(null, 'horizontal', p(1)), p(3)).points).toEqual([p(3), p(3)]);
    expect(dragDraft(pressDraft(null, 'measure', p(1)), p(3)).points).toEqual([p(1), p(3)]);
    expect(hoverDraft(pressDraft(null, 'trend', p(1)), p(2)).points).toEqual([p(1), p(2)]);
  });

  it('waits for a second click after a click with a two-point tool, else finishes', () => {
    const trend = pressDraft(null, 'trend', p(1));
    expect(releaseDraft(trend, false)).toBe('wait');
    expect(releaseDraft(trend, true)).toBe('finish');
    expect(releaseDraft({ ...trend, waiting: true }, false)).toBe('finish');
    expect(releaseDraft(pressDraft(null, 'measure', p(1)), false)).toBe('wait');
    expect(releaseDraft(pressDraft(null, 'vertical', p(1)), false)).toBe('finish');
  });

  it('draws the points its kind needs, without the bar index; the measure draws a span', () => {
    const trend = dragDraft(pressDraft(null, 'trend', p(1, 100)), p(2, 101));
    expect(draftShape(trend)).toEqual({
      kind: 'trend',
      points: [
        { time: p(1).time, price: 100 },
        { time: p(2).time, price: 101 },
      ],
      style: DEFAULT_DRAWING_STYLE,
    });
    expect(draftShape(pressDraft(null, 'horizontal', p(1)))?.points).toHaveLength(1);
    expect(draftSpan(trend)).toBeNull();
    const measure = dragDraft(pressDraft(null, 'measure', p(1)), p(5));
    expect(draftShape(measure)).toBeNull();
    expect(draftSpan(measure)).toEqual([p(1), p(5)]);
    expect(draftShape(null)).toBeNull();
  });
});
