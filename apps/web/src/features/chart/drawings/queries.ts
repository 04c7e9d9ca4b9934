import type { Drawing, DrawingEvent, DrawingShape } from '@ct/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { messages } from '../../../i18n/firstScreen';
import { notify } from '../../../shared/notify';
import { queryClient } from '../../../shared/queryClient';
import { createDrawing, deleteDrawing, fetchDrawings, updateDrawing } from './api';

/*
 * An instrument's drawings are server state: one query per symbol in the TanStack Query
 * cache, shared by every chart of that instrument. A move or a deletion goes into the cache
 * at once (the chart redraws), then to the server; a refusal puts the server's list back.
 */

export const drawingKeys = {
  of: (symbol: string) => ['charts', 'drawings', symbol] as const,
};

/**
 * Changes on another device come live (`charts:{userId}`, see live.ts); after this long the
 * list is also asked again when the window is focused, in case the connection missed some.
 */
const DRAWINGS_STALE_MS = 30_000;

export const drawingsQuery = (symbol: string) =>
  queryOptions({
    queryKey: drawingKeys.of(symbol),
    queryFn: () => fetchDrawings(symbol),
    staleTime: DRAWINGS_STALE_MS,
    refetchOnWindowFocus: true,
  });

/** The instrument's drawings; `data` stays undefined until the first answer. */
export function useDrawingList(symbol: string | null, enabled: boolean) {
  return useQuery({ ...drawingsQuery(symbol ?? ''), enabled: enabled && symbol !== null });
}

const d = messages.drawings;

function detailOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function setList(symbol: string, change: (list: Drawing[]) => Drawing[]): void {
  queryClient.setQueryData<Drawing[]>(drawingKeys.of(symbol), (list) => change(list ?? []));
}

/** The server's list again, after a refused change. */
function reload(symbol: string): void {
  void queryClient.invalidateQueries({ queryKey: drawingKeys.of(symbol) });
}

/** Saves a new drawing; null (and a message) when the server refused it. */
export async function addDrawing(symbol: string, shape: DrawingShape): Promise<Drawing | null> {
  try {
    const saved = await createDrawing({ symbol, ...shape });
    setList(symbol, (list) => [...list.filter((x) => x.id !== saved.id), saved]);
    return saved;
  } catch (error) {
    notify.error(`${d.saveFailed}: ${detailOf(error)}`);
    return null;
  }
}

/** The newest change of each drawing: an older change's answer does not overwrite it. */
const latestChange = new Map<number, number>();
let changes = 0;

/** Moves or edits a drawing: shown at once, saved, put back when the server refuses. */
export async function changeDrawing(
  symbol: string,
  id: number,
  shape: DrawingShape,
): Promise<void> {
  const seq = ++changes;
  latestChange.set(id, seq);
  setList(symbol, (list) => list.map((x) => (x.id === id ? ({ ...x, ...shape } as Drawing) : x)));
  try {
    const saved = await updateDrawing(id, shape);
    if (latestChange.get(id) === seq) {
      setList(symbol, (list) => list.map((x) => (x.id === id ? saved : x)));
    }
  } catch (error) {
    notify.error(`${d.saveFailed}: ${detailOf(error)}`);
    reload(symbol);
  } finally {
    if (latestChange.get(id) === seq) latestChange.delete(id);
  }
}

/** Drawings whose deletion this page has sent and not yet heard back about. */
const deleting = new Set<number>();

/** Deletes a drawing: gone at once, back when the server refuses. */
export async function removeDrawing(symbol: string, id: number): Promise<void> {
  setList(symbol, (list) => list.filter((x) => x.id !== id));
  deleting.add(id);
  try {
    await deleteDrawing(id);
  } catch (error) {
    notify.error(`${d.deleteFailed}: ${detailOf(error)}`);
    reload(symbol);
  } finally {
    deleting.delete(id);
  }
}

/**
 * A drawing saved or deleted on any device of the user (the live channel): patched into
 * the instrument's list when this page holds it. A drawing this page is changing or
 * deleting right now is left to that call's answer, so an echo of an older change never
 * pulls it back mid-edit; an older version than the cached one is ignored too.
 */
export function applyDrawingEvent(event: DrawingEvent): void {
  if (event.type === 'drawing_deleted') {
    const key = drawingKeys.of(event.symbol);
    if (queryClient.getQueryData(key) === undefined) return;
    setList(event.symbol, (list) => list.filter((x) => x.id !== event.id));
    return;
  }
  const { drawing } = event;
  const key = drawingKeys.of(drawing.symbol);
  if (queryClient.getQueryData(key) === undefined) return; // fetched whole when needed
  if (latestChange.has(drawing.id) || deleting.has(drawing.id)) return;
  setList(drawing.symbol, (list) => {
    const cached = list.find((x) => x.id === drawing.id);
    if (!cached) return [...list, drawing].sort((a, b) => a.id - b.id);
    if (cached.updatedAt > drawing.updatedAt) return list;
    return list.map((x) => (x.id === drawing.id ? drawing : x));
  });
}

/** Every instrument's list is asked again (the live channel may have missed changes). */
export function reloadAllDrawings(): void {
  void queryClient.invalidateQueries({ queryKey: ['charts', 'drawings'] });
}
