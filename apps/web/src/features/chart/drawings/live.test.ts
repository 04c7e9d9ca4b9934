import { DEFAULT_DRAWING_STYLE, type Drawing } from '@ct/domain';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient, resetQueryClient } from '../../../shared/queryClient';
import { handleDrawingPublication } from './live';
import { changeDrawing, drawingKeys, removeDrawing } from './queries';

// The server's answers to this page's own calls, held until the test lets them go.
const calls = vi.hoisted(() => ({
  update: [] as { resolve: (d: unknown) => void }[],
  remove: [] as { resolve: () => void }[],
}));
vi.mock('./api', () => ({
  updateDrawing: () => new Promise((resolve) => calls.update.push({ resolve })),
  deleteDrawing: () => new Promise<void>((resolve) => calls.remove.push({ resolve })),
  createDrawing: vi.fn(),
  fetchDrawings: vi.fn(async () => []),
  fetchChartsLiveToken: vi.fn(),
}));

const P = { time: 1_767_600_000, price: 100 };
const drawing = (id: number, over: Partial<Drawing> = {}): Drawing =>
  ({
    id,
    symbol: 'BTCUSDT',
    kind: 'horizontal',
    points: [P],
    style: DEFAULT_DRAWING_STYLE,
    createdAt: 10,
    updatedAt: 10,
    ...over,
  }) as Drawing;

const listOf = (symbol = 'BTCUSDT') => queryClient.getQueryData<Drawing[]>(drawingKeys.of(symbol));

beforeEach(() => {
  calls.update.length = 0;
  calls.remove.length = 0;
  queryClient.setQueryData(drawingKeys.of('BTCUSDT'), [drawing(1), drawing(3)]);
});
afterEach(() => resetQueryClient());

describe('drawing events of the live channel', () => {
  it('adds a drawing made on another device in id order, and replaces a restyled one', () => {
    handleDrawingPublication({ type: 'drawing_saved', drawing: drawing(2) });
    expect(listOf()?.map((d) => d.id)).toEqual([1, 2, 3]);
    const red = { color: '#f23645', width: 3, line: 'dashed' } as const;
    handleDrawingPublication({
      type: 'drawing_saved',
      drawing: drawing(3, { style: red, updatedAt: 20 }),
    });
    expect(listOf()?.find((d) => d.id === 3)?.style).toEqual(red);
    // an older version than the one shown is not taken
    handleDrawingPublication({ type: 'drawing_saved', drawing: drawing(3, { updatedAt: 15 }) });
    expect(listOf()?.find((d) => d.id === 3)?.style).toEqual(red);
  });

  it('removes a drawing deleted on another device', () => {
    handleDrawingPublication({ type: 'drawing_deleted', id: 1, symbol: 'BTCUSDT' });
    expect(listOf()?.map((d) => d.id)).toEqual([3]);
  });

  it('leaves instruments this page has not loaded alone, and ignores what does not parse', () => {
    handleDrawingPublication({ type: 'drawing_saved', drawing: drawing(5, { symbol: 'EURUSD' }) });
    expect(listOf('EURUSD')).toBeUndefined();
    handleDrawingPublication({ type: 'drawing_saved', drawing: { id: 'x' } });
    handleDrawingPublication('nonsense');
    expect(listOf()?.map((d) => d.id)).toEqual([1, 3]);
  });

  it('does not pull back a drawing this page is moving or deleting (its own echo)', async () => {
    const moved = { time: P.time, price: 120 };
    const change = changeDrawing('BTCUSDT', 1, {
      kind: 'horizontal',
      points: [moved],
      style: DEFAULT_DRAWING_STYLE,
    });
    // an echo of an older state arrives while the move is on its way
    handleDrawingPublication({ type: 'drawing_saved', drawing: drawing(1, { updatedAt: 11 }) });
    expect(listOf()?.[0]?.points).toEqual([moved]);
    calls.update[0]!.resolve(drawing(1, { points: [moved], updatedAt: 12 }));
    await change;
    expect(listOf()?.[0]).toMatchObject({ points: [moved], updatedAt: 12 });

    const removal = removeDrawing('BTCUSDT', 3);
    handleDrawingPublication({ type: 'drawing_saved', drawing: drawing(3, { updatedAt: 30 }) });
    expect(listOf()?.map((d) => d.id)).toEqual([1]);
    calls.remove[0]!.resolve();
    await removal;
    handleDrawingPublication({ type: 'drawing_deleted', id: 3, symbol: 'BTCUSDT' });
    expect(listOf()?.map((d) => d.id)).toEqual([1]);
  });
});
