import type { IChartApi, ISeriesApi, ISeriesPrimitive, SeriesType, Time } from 'lightweight-charts';
import { LineStyle } from 'lightweight-charts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TradeLinesLayer, type LayerEvents, type LineDraw } from './TradeLinesLayer';

/*
 * The drag against a stand-in of the chart: the price scale maps price p to y = (200 − p) × 4
 * (price 110 at y 360, price 100 at y 400), the pane is 600 px high and 800 px wide.
 */

type FakeLine = { options: () => { price: number }; applyOptions: (o: { price?: number }) => void };

function stage() {
  const element = document.createElement('div');
  Object.defineProperty(element, 'clientWidth', { value: 800 });
  const inner = document.createElement('canvas');
  element.append(inner);
  document.body.append(element);
  let options: Record<string, unknown> = { handleScroll: true, handleScale: true };
  let primitive: ISeriesPrimitive<Time> | null = null;
  const priceLines: FakeLine[] = [];
  const series = {
    attachPrimitive: (p: ISeriesPrimitive<Time>) => {
      primitive = p;
    },
    detachPrimitive: () => {
      primitive = null;
    },
    createPriceLine: (o: { price: number }) => {
      let current = { ...o };
      const line: FakeLine = {
        options: () => current,
        applyOptions: (next) => {
          current = { ...current, ...next };
        },
      };
      priceLines.push(line);
      return line;
    },
    removePriceLine: vi.fn(),
    priceToCoordinate: (price: number) => (200 - price) * 4,
    coordinateToPrice: (y: number) => 200 - y / 4,
  };
  const chart = {
    chartElement: () => element,
    options: () => options,
    applyOptions: (next: Record<string, unknown>) => {
      options = { ...options, ...next };
    },
    panes: () => [{ getHeight: () => 600 }],
  };
  const events = {
    place: vi.fn<LayerEvents['place']>(),
    dragMove: vi.fn<LayerEvents['dragMove']>(),
    drop: vi.fn<LayerEvents['drop']>(),
    dragCancel: vi.fn<NonNullable<LayerEvents['dragCancel']>>(),
  };
  const layer = new TradeLinesLayer(events);
  const lines: LineDraw[] = [
    { id: 'position:1', price: 100, color: 'g', lineStyle: LineStyle.Solid, draggable: false },
    { id: 'tp:1', price: 110, color: 'g', lineStyle: LineStyle.Dashed, draggable: true },
  ];
  layer.setTick(0.1);
  layer.setLines(lines);
  layer.attach(chart as unknown as IChartApi, series as unknown as ISeriesApi<SeriesType, Time>);
  const priceOf = (index: number) => priceLines[index]!.options().price;
  return {
    element,
    inner,
    layer,
    events,
    options: () => options,
    priceOf,
    redraw: () => primitive?.updateAllViews?.(),
  };
}

/** A pointer event as the browser sends it (jsdom has no PointerEvent). */
function pointer(
  type: string,
  y: number,
  pointerType: 'mouse' | 'touch' = 'mouse',
  x = 300,
): MouseEvent {
  const event = new MouseEvent(type, {
    clientX: x,
    clientY: y,
    button: 0,
    bubbles: true,
    cancelable: true,
  });
  return Object.assign(event, { pointerId: 1, pointerType });
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('trade lines on the chart', () => {
  it('tells where each line is, and again when the chart redraws', () => {
    const { events, redraw } = stage();
    expect(events.place).toHaveBeenLastCalledWith(
      new Map([
        ['position:1', 400],
        ['tp:1', 360],
      ]),
    );
    events.place.mockClear();
    redraw(); // nothing moved: the labels are left alone
    expect(events.place).not.toHaveBeenCalled();
  });

  it('drags a TP line with the mouse: the price follows the pointer on the tick', () => {
    const { element, inner, events, options, priceOf } = stage();
    const chartPress = vi.fn();
    inner.addEventListener('mousedown', chartPress);

    element.dispatchEvent(pointer('pointerdown', 363)); // 3 px from the TP line
    inner.dispatchEvent(pointer('mousedown', 363));
    // the chart neither scrolls nor scales, and never saw the press
    expect(options()).toMatchObject({ handleScroll: false, handleScale: false });
    expect(chartPress).not.toHaveBeenCalled();

    element.dispatchEvent(pointer('pointermove', 321)); // 200 − 321 / 4 = 119.75 → 119.8
    expect(events.dragMove).toHaveBeenLastCalledWith('tp:1', 119.8);
    expect(priceOf(1)).toBe(119.8);
    element.dispatchEvent(pointer('pointerup', 321));

    expect(events.drop).toHaveBeenCalledWith('tp:1', 119.8);
    expect(options()).toMatchObject({ handleScroll: true, handleScale: true });
  });

  it('leaves the chart alone when the press is not on a draggable line', () => {
    const { element, inner, events, options } = stage();
    const chartPress = vi.fn();
    inner.addEventListener('mousedown', chartPress);
    element.dispatchEvent(pointer('pointerdown', 400)); // the position line: not draggable
    inner.dispatchEvent(pointer('mousedown', 400));
    element.dispatchEvent(pointer('pointerdown', 372)); // 12 px from the TP line
    element.dispatchEvent(pointer('pointermove', 300));
    expect(chartPress).toHaveBeenCalled();
    expect(options()).toMatchObject({ handleScroll: true });
    expect(events.dragMove).not.toHaveBeenCalled();
  });

  it('a finger grabs from further away (16 px)', () => {
    const { element, events } = stage();
    element.dispatchEvent(pointer('pointerdown', 372, 'touch'));
    element.dispatchEvent(pointer('pointermove', 340, 'touch')); // 200 − 85 = 115
    element.dispatchEvent(pointer('pointerup', 340, 'touch'));
    expect(events.drop).toHaveBeenCalledWith('tp:1', 115);
  });

  it('a press without a move drops nothing; a cancelled drag goes back', () => {
    const { element, events, options, priceOf } = stage();
    element.dispatchEvent(pointer('pointerdown', 360));
    element.dispatchEvent(pointer('pointerup', 360));
    expect(events.drop).not.toHaveBeenCalled();

    element.dispatchEvent(pointer('pointerdown', 360, 'touch'));
    element.dispatchEvent(pointer('pointermove', 300, 'touch'));
    expect(priceOf(1)).toBe(125);
    element.dispatchEvent(pointer('pointercancel', 300, 'touch'));
    expect(events.dragCancel).toHaveBeenCalledWith('tp:1');
    expect(events.drop).not.toHaveBeenCalled();
    expect(priceOf(1)).toBe(110);
    expect(options()).toMatchObject({ handleScroll: true, handleScale: true });
  });

  it('shows a dropped line at its new price until told otherwise', () => {
    const { layer, priceOf, events } = stage();
    layer.showAt('tp:1', 115);
    expect(priceOf(1)).toBe(115);
    expect(events.place).toHaveBeenLastCalledWith(
      new Map([
        ['position:1', 400],
        ['tp:1', 340],
      ]),
    );
    layer.showAt('tp:1', null);
    expect(priceOf(1)).toBe(110);
  });

  it('stops listening when detached', () => {
    const { element, layer, events } = stage();
    layer.detach();
    element.dispatchEvent(pointer('pointerdown', 360));
    element.dispatchEvent(pointer('pointermove', 300));
    expect(events.dragMove).not.toHaveBeenCalled();
  });
});
