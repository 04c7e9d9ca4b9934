import type { IChartApi } from 'lightweight-charts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PointerGesture, type PointerGestureHandlers } from './pointerGesture';

function fakeChart() {
  const options = { handleScroll: { mouseWheel: false } as unknown, handleScale: true as unknown };
  const applyOptions = vi.fn((o: Partial<typeof options>) => Object.assign(options, o));
  const chart = { options: () => ({ ...options }), applyOptions } as unknown as IChartApi;
  return { chart, options, applyOptions };
}

function pointer(target: Element, type: string, pointerId = 1, pointerType = 'mouse', button = 0) {
  const event = new MouseEvent(type, { bubbles: true, cancelable: true, button });
  Object.defineProperty(event, 'pointerId', { value: pointerId });
  Object.defineProperty(event, 'pointerType', { value: pointerType });
  target.dispatchEvent(event);
  return event;
}

function setup(takeOnDown = true) {
  const element = document.createElement('div');
  const inner = document.createElement('div');
  element.append(inner);
  document.body.append(element);
  const fake = fakeChart();
  const seen: string[] = [];
  const gesture: PointerGesture = new PointerGesture({
    down: (e) => {
      seen.push('down');
      if (takeOnDown) gesture.start(e as PointerEvent);
    },
    move: () => seen.push('move'),
    hover: () => seen.push('hover'),
    up: () => {
      seen.push('up');
      gesture.end();
    },
    cancel: () => {
      seen.push('cancel');
      gesture.end();
    },
  } satisfies PointerGestureHandlers);
  gesture.attach(fake.chart, element);
  // what the chart itself would hear, below the gesture's capture listeners
  const chartHeard: string[] = [];
  for (const type of ['pointermove', 'pointerup', 'mousedown', 'touchstart', 'touchmove']) {
    inner.addEventListener(type, () => chartHeard.push(type));
  }
  return { element, inner, gesture, seen, chartHeard, ...fake };
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('PointerGesture', () => {
  it('cancels the touchend of a finger’s gesture, so lifting it clicks nothing under it', () => {
    const { inner } = setup();
    const lift = () => {
      const end = new Event('touchend', { bubbles: true, cancelable: true });
      inner.dispatchEvent(end);
      return end.defaultPrevented;
    };
    inner.dispatchEvent(new Event('touchstart', { bubbles: true }));
    pointer(inner, 'pointerdown', 7, 'touch');
    pointer(inner, 'pointermove', 7, 'touch');
    pointer(inner, 'pointerup', 7, 'touch');
    expect(lift()).toBe(true);
    // a later tap that grabbed nothing is a tap as usual
    inner.dispatchEvent(new Event('touchstart', { bubbles: true }));
    expect(lift()).toBe(false);
    // and a mouse's gesture leaves touches alone
    pointer(inner, 'pointerdown');
    pointer(inner, 'pointerup');
    expect(lift()).toBe(false);
  });

  it('turns the chart’s scrolling and scaling off during a gesture and puts back what they were', () => {
    const { inner, gesture, options, applyOptions } = setup();
    pointer(inner, 'pointerdown');
    expect(gesture.running).toBe(true);
    expect(gesture.pointerId).toBe(1);
    expect(options).toEqual({ handleScroll: false, handleScale: false });
    pointer(inner, 'pointerup');
    expect(gesture.running).toBe(false);
    expect(options).toEqual({ handleScroll: { mouseWheel: false }, handleScale: true });
    expect(applyOptions).toHaveBeenCalledTimes(2);
  });

  it('keeps the press, the moves and the release of the gesture’s pointer from the chart', () => {
    const { inner, seen, chartHeard } = setup();
    pointer(inner, 'pointerdown');
    inner.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
    inner.dispatchEvent(new Event('touchstart', { bubbles: true }));
    pointer(inner, 'pointermove');
    const touchMove = new Event('touchmove', { bubbles: true, cancelable: true });
    inner.dispatchEvent(touchMove);
    expect(touchMove.defaultPrevented).toBe(true); // the page does not scroll either
    pointer(inner, 'pointerup');
    expect(seen).toEqual(['down', 'move', 'up']);
    expect(chartHeard).toEqual([]);
    // after the release the chart hears everything again
    inner.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
    pointer(inner, 'pointermove');
    const laterTouch = new Event('touchmove', { bubbles: true, cancelable: true });
    inner.dispatchEvent(laterTouch);
    expect(laterTouch.defaultPrevented).toBe(false);
    expect(chartHeard).toEqual(['mousedown', 'pointermove', 'touchmove']);
    expect(seen).toEqual(['down', 'move', 'up', 'hover']);
  });

  it('leaves a press the layer does not take to the chart', () => {
    const { inner, gesture, seen, chartHeard, applyOptions } = setup(false);
    pointer(inner, 'pointerdown');
    inner.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
    pointer(inner, 'pointermove');
    expect(gesture.running).toBe(false);
    expect(seen).toEqual(['down', 'hover']);
    expect(chartHeard).toEqual(['mousedown', 'pointermove']);
    expect(applyOptions).not.toHaveBeenCalled();
  });

  it('ignores a mouse’s other buttons and other pointers during a gesture', () => {
    const { inner, gesture, seen } = setup();
    pointer(inner, 'pointerdown', 1, 'mouse', 2);
    expect(gesture.running).toBe(false);
    pointer(inner, 'pointerdown', 5, 'touch');
    pointer(inner, 'pointerdown', 6, 'touch');
    pointer(inner, 'pointermove', 6, 'touch');
    pointer(inner, 'pointerup', 6, 'touch');
    expect(gesture.pointerId).toBe(5);
    expect(seen).toEqual(['down']);
    pointer(inner, 'pointercancel', 5, 'touch');
    expect(seen).toEqual(['down', 'cancel']);
    expect(gesture.running).toBe(false);
  });

  it('ends a running gesture when detached and stops listening', () => {
    const { inner, gesture, seen, options } = setup();
    pointer(inner, 'pointerdown');
    gesture.detach();
    expect(gesture.running).toBe(false);
    expect(options.handleScale).toBe(true);
    pointer(inner, 'pointerdown');
    expect(seen).toEqual(['down']);
  });
});
