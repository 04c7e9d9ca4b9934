import { DEFAULT_DRAWING_STYLE, type Bar, type Drawing } from '@ct/domain';
import type { IChartApi, ISeriesApi, ISeriesPrimitive, SeriesType, Time } from 'lightweight-charts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hourlyBars } from '../../../test/fixtures';
import { DrawingLayer, type DrawingLayerEvents } from './DrawingLayer';

// A chart whose scales are straight lines: bar i at x = 10·i, price p at y = 400 − 10·(p − 100)
// (so y 100 is price 130), a price pane 800 × 400 px. Hourly bars from T0.
const T0 = Date.UTC(2026, 0, 5);
const H = 3_600_000;
const bars: Bar[] = hourlyBars(60, T0);
const timeOf = (i: number) => (T0 + i * H) / 1000;

function fakeChart() {
  const container = document.createElement('div');
  const element = document.createElement('div');
  container.append(element);
  document.body.append(container);
  let primitive: ISeriesPrimitive<Time> | null = null;
  const options = { handleScroll: true, handleScale: true };
  const applyOptions = vi.fn((o: Partial<typeof options>) => Object.assign(options, o));
  const chart = {
    chartElement: () => element,
    timeScale: () => ({
      width: () => 800,
      logicalToCoordinate: (l: number) => l * 10,
      coordinateToLogical: (x: number) => x / 10,
    }),
    panes: () => [{ getHeight: () => 400 }],
    options: () => ({ ...options }),
    applyOptions,
  } as unknown as IChartApi;
  const series = {
    attachPrimitive: (p: ISeriesPrimitive<Time>) => {
      primitive = p;
      p.attached?.({ requestUpdate: () => p.updateAllViews?.() } as never);
    },
    detachPrimitive: () => {
      primitive = null;
    },
    priceToCoordinate: (p: number) => 400 - (p - 100) * 10,
    coordinateToPrice: (y: number) => 100 + (400 - y) / 10,
  } as unknown as ISeriesApi<SeriesType, Time>;
  return { chart, series, container, applyOptions, primitive: () => primitive };
}

function pointer(target: Element, type: string, x: number, y: number, pointerType = 'mouse') {
  const event = new MouseEvent(type, { bubbles: true, cancelable: true, clientX: x, clientY: y });
  Object.defineProperty(event, 'pointerId', { value: 1 });
  Object.defineProperty(event, 'pointerType', { value: pointerType });
  target.dispatchEvent(event);
  return event;
}

function setup() {
  const events = {
    create: vi.fn<DrawingLayerEvents['create']>(async () => null),
    update: vi.fn<DrawingLayerEvents['update']>(),
    remove: vi.fn<DrawingLayerEvents['remove']>(),
  };
  const layer = new DrawingLayer(events);
  const fake = fakeChart();
  layer.setContext('1h', 0.1, {
    background: '#fff',
    text: '#000',
    up: '#0a0',
    down: '#a00',
    fontFamily: 'sans-serif',
  });
  layer.attach(fake.chart, fake.series);
  layer.reset(bars);
  const el = fake.chart.chartElement();
  const click = (x: number, y: number, type = 'mouse') => {
    pointer(el, 'pointerdown', x, y, type);
    pointer(el, 'pointerup', x, y, type);
  };
  const drag = (from: [number, number], to: [number, number]) => {
    pointer(el, 'pointerdown', ...from);
    pointer(el, 'pointermove', (from[0] + to[0]) / 2, (from[1] + to[1]) / 2);
    pointer(el, 'pointermove', ...to);
    pointer(el, 'pointerup', ...to);
  };
  return { layer, events, ...fake, el, click, drag };
}

const trend: Drawing = {
  id: 7,
  symbol: 'BTCUSDT',
  kind: 'trend',
  points: [
    { time: timeOf(10), price: 110 },
    { time: timeOf(30), price: 120 },
  ],
  style: DEFAULT_DRAWING_STYLE,
  createdAt: 0,
  updatedAt: 0,
};

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
  document.body.innerHTML = '';
});

describe('DrawingLayer', () => {
  it('places a horizontal line with one click at the bar and price under the pointer', () => {
    const t = setup();
    cleanup = () => t.layer.dispose();
    t.layer.setTool('horizontal');
    expect(t.container.dataset.drawingTool).toBe('horizontal');
    t.click(201, 100);
    expect(t.events.create).toHaveBeenCalledWith({
      kind: 'horizontal',
      points: [{ time: timeOf(20), price: 130 }],
      style: DEFAULT_DRAWING_STYLE,
    });
    // the tool is put away after one drawing
    expect(t.layer.ui.getState().tool).toBeNull();
  });

  it('draws a trend line by dragging, or by two clicks (touch)', () => {
    const t = setup();
    cleanup = () => t.layer.dispose();
    t.layer.setTool('trend');
    t.drag([100, 300], [300, 200]);
    expect(t.events.create).toHaveBeenLastCalledWith({
      kind: 'trend',
      points: [
        { time: timeOf(10), price: 110 },
        { time: timeOf(30), price: 120 },
      ],
      style: DEFAULT_DRAWING_STYLE,
    });

    t.layer.setTool('rectangle');
    t.click(100, 300, 'touch');
    expect(t.events.create).toHaveBeenCalledTimes(1); // waits for the second point
    t.click(400, 100, 'touch');
    expect(t.events.create).toHaveBeenLastCalledWith({
      kind: 'rectangle',
      points: [
        { time: timeOf(10), price: 110 },
        { time: timeOf(40), price: 130 },
      ],
      style: DEFAULT_DRAWING_STYLE,
    });
  });

  it('keeps the chart from scrolling while it draws, and gives the press to the chart otherwise', () => {
    const t = setup();
    cleanup = () => t.layer.dispose();
    const onChart = vi.fn();
    t.el.addEventListener('pointerdown', onChart);
    t.click(50, 50); // nothing there, no tool: the chart scrolls as usual
    expect(onChart).toHaveBeenCalledTimes(1);
    t.layer.setTool('vertical');
    pointer(t.el, 'pointerdown', 100, 100);
    expect(onChart).toHaveBeenCalledTimes(1);
    expect(t.applyOptions).toHaveBeenLastCalledWith({ handleScroll: false, handleScale: false });
    pointer(t.el, 'pointerup', 100, 100);
    expect(t.applyOptions).toHaveBeenLastCalledWith({ handleScroll: true, handleScale: true });
  });

  it('selects a drawing under the pointer and moves it by whole bars and the price moved', () => {
    const t = setup();
    cleanup = () => t.layer.dispose();
    t.layer.setDrawings([trend]);
    expect(t.container.dataset.drawings).toBe('1');
    // the middle of the line: bar 20, price 115 (y 250); drag 5 bars right and 2 down
    t.drag([200, 250], [250, 270]);
    expect(t.layer.ui.getState().selected).toEqual({
      id: 7,
      kind: 'trend',
      style: DEFAULT_DRAWING_STYLE,
    });
    expect(t.container.dataset.drawingSelected).toBe('7');
    expect(t.events.update).toHaveBeenCalledWith(7, {
      kind: 'trend',
      points: [
        { time: timeOf(15), price: 108 },
        { time: timeOf(35), price: 118 },
      ],
      style: DEFAULT_DRAWING_STYLE,
    });
  });

  it('drags one end of the selected line by its handle', () => {
    const t = setup();
    cleanup = () => t.layer.dispose();
    t.layer.setDrawings([trend]);
    t.click(200, 250); // select
    t.drag([300, 200], [350, 150]);
    expect(t.events.update).toHaveBeenCalledWith(7, {
      kind: 'trend',
      points: [
        { time: timeOf(10), price: 110 },
        { time: timeOf(35), price: 125 },
      ],
      style: DEFAULT_DRAWING_STYLE,
    });
  });

  it('deletes the selected drawing with the Delete key; Escape only clears the selection', () => {
    const t = setup();
    cleanup = () => t.layer.dispose();
    t.layer.setDrawings([trend]);
    t.click(200, 250);
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    expect(t.layer.ui.getState().selected).toBeNull();
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Delete' }));
    expect(t.events.remove).not.toHaveBeenCalled();
    t.click(200, 250);
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Delete' }));
    expect(t.events.remove).toHaveBeenCalledWith(7);
  });

  it('measures from A to B: price, percent, bars and time', async () => {
    const t = setup();
    cleanup = () => t.layer.dispose();
    t.layer.setTool('measure');
    t.drag([100, 300], [300, 200]);
    await Promise.resolve();
    expect(t.layer.ui.getState().measure).toMatchObject({
      text: '+10.0 (+9.0909%) · 20 bars · 20h',
      x: 300,
      y: 200,
      up: true,
    });
    expect(t.events.create).not.toHaveBeenCalled();
  });
});

describe('DrawingLayer styles', () => {
  it('restyles the selected drawing, keeping its points, and shows the new style on the bar', () => {
    const t = setup();
    cleanup = () => t.layer.dispose();
    t.layer.setDrawings([trend]);
    t.click(200, 250); // the middle of the trend line
    expect(t.layer.ui.getState().selected).toEqual({
      id: 7,
      kind: 'trend',
      style: DEFAULT_DRAWING_STYLE,
    });
    t.layer.restyleSelected({ color: '#f23645' });
    expect(t.events.update).toHaveBeenLastCalledWith(7, {
      kind: 'trend',
      points: trend.points,
      style: { color: '#f23645', width: 2, line: 'solid' },
    });
    // the cache takes the change: the bar follows the list
    const restyled = { ...trend, style: { color: '#f23645', width: 3, line: 'dashed' as const } };
    t.layer.setDrawings([restyled]);
    expect(t.layer.ui.getState().selected?.style).toEqual(restyled.style);
    // the same style again sends nothing; a fill is for rectangles only
    t.events.update.mockClear();
    t.layer.restyleSelected({ width: 3 });
    expect(t.events.update).not.toHaveBeenCalled();
    t.layer.restyleSelected({ fill: 0.5 });
    expect(t.events.update).toHaveBeenLastCalledWith(7, {
      kind: 'trend',
      points: trend.points,
      style: restyled.style,
    });
  });

  it('gives a rectangle its fill; nothing is sent without a selection', () => {
    const t = setup();
    cleanup = () => t.layer.dispose();
    const rectangle: Drawing = { ...trend, id: 9, kind: 'rectangle' };
    t.layer.setDrawings([rectangle]);
    t.layer.restyleSelected({ fill: 0.25 });
    expect(t.events.update).not.toHaveBeenCalled();
    t.click(200, 250); // inside the rectangle
    t.layer.restyleSelected({ fill: 0.25 });
    expect(t.events.update).toHaveBeenLastCalledWith(9, {
      kind: 'rectangle',
      points: rectangle.points,
      style: { ...DEFAULT_DRAWING_STYLE, fill: 0.25 },
    });
  });

  it('unselects a drawing deleted on another device', () => {
    const t = setup();
    cleanup = () => t.layer.dispose();
    t.layer.setDrawings([trend]);
    t.click(200, 250);
    expect(t.container.dataset.drawingSelected).toBe('7');
    t.layer.setDrawings([]);
    expect(t.layer.ui.getState().selected).toBeNull();
    expect(t.container.dataset.drawingSelected).toBe('');
    expect(t.container.dataset.drawings).toBe('0');
  });

  it('in a bar replay draws nothing after the last shown bar: cuts, hides, and gives back', async () => {
    const t = setup();
    cleanup = () => t.layer.dispose();
    const later: Drawing = {
      ...trend,
      id: 8,
      kind: 'horizontal',
      points: [{ time: timeOf(40), price: 105 }],
    };
    t.layer.setDrawings([trend, later]);
    expect(t.container.dataset).toMatchObject({
      drawingsShown: '2',
      drawingsTo: String(timeOf(40)),
    });
    // the replay shows bars up to bar 20
    t.layer.replayCursor(timeOf(20) * 1000);
    t.layer.reset(bars.slice(0, 21));
    expect(t.container.dataset).toMatchObject({
      drawingsShown: '1',
      drawingsTo: String(timeOf(20)),
    });
    // the trend line ends at bar 20: its part at bar 25 is not there to grab
    t.click(250, 225);
    expect(t.container.dataset.drawingSelected).toBe('');
    t.click(150, 275);
    expect(t.container.dataset.drawingSelected).toBe('7');
    t.click(700, 20);
    expect(t.container.dataset.drawingSelected).toBe('');
    // a line drawn during the replay shows as drawn, beyond the cursor too
    t.events.create.mockImplementationOnce(
      async (shape) =>
        ({
          ...trend,
          ...shape,
          id: 9,
        }) as Drawing,
    );
    t.layer.setTool('trend');
    t.drag([100, 300], [400, 200]);
    await t.events.create.mock.results.at(-1)!.value;
    const drawn = t.events.create.mock.calls.at(-1)![0];
    t.layer.setDrawings([trend, later, { ...trend, ...drawn, id: 9 } as Drawing]);
    expect(t.container.dataset).toMatchObject({
      drawingsShown: '2',
      drawingsTo: String(timeOf(40)),
    });
    // the replay ends: everything as drawn
    t.layer.replayCursor(null);
    t.layer.reset(bars);
    expect(t.container.dataset).toMatchObject({
      drawingsShown: '3',
      drawingsTo: String(timeOf(40)),
    });
  });
});
