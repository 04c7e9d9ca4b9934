import type { Drawing, DrawingKind, DrawingShape, DrawingStyle } from '@ct/domain';
import type { DrawingTool } from './draft';
import type { MeasureReadout } from './readout';

/* What the drawing layer and React hand each other. */

/** What React shows beside the chart: the armed tool, the selection, the measurement. */
export type DrawingUiState = {
  tool: DrawingTool | null;
  /** The selected drawing and its style (what the style bar shows). */
  selected: { id: number; kind: DrawingKind; style: DrawingStyle } | null;
  measure: MeasureReadout | null;
};

export type DrawingLayerEvents = {
  /** A drawing was finished: save it; the answer is the saved drawing, or null. */
  create(shape: DrawingShape): Promise<Drawing | null>;
  /** A drawing was moved or a point dragged. */
  update(id: number, shape: DrawingShape): void;
  remove(id: number): void;
};

/** The theme's colours the drawings are painted with. */
export type DrawingColors = {
  background: string;
  text: string;
  up: string;
  down: string;
  fontFamily: string;
};

/** Until React hands the theme's in. */
export const DEFAULT_DRAWING_COLORS: DrawingColors = {
  background: '#ffffff',
  text: '#000000',
  up: '#089981',
  down: '#f23645',
  fontFamily: 'sans-serif',
};
