import { BellOutlined, CloseOutlined, DeleteOutlined } from '@ant-design/icons';
import { formatPrice, lineLevelAt, type Drawing, type Period } from '@ct/domain';
import { Button } from 'antd';
import {
  lazy,
  Suspense,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import { messages } from '../../../i18n/firstScreen';
import type { ChartColors } from '../../../shared/chartTheme';
import { afterFirstChart } from '../../../shared/firstChart';
import { isChildFrame } from '../../../realtime/connection';
import { openAddAlert } from '../../alerts';
import { useAuthStore } from '../../auth';
import type { BarListener, ChartLayer } from '../ChartController';
import type { DrawingLayer, DrawingTool, DrawingUiState, MeasureReadout } from './DrawingLayer';
import { DrawingToolIcon } from './icons';
import { useDrawingsLive } from './live';
import { addDrawing, changeDrawing, removeDrawing, useDrawingList } from './queries';
import './drawings.css';

const d = messages.drawings;

// The drawing layer (hit tests, renderer, pointer handling) and the selection's style bar
// follow the first drawn chart (shared/firstChart.ts): the saved drawings come a frame after
// the bars, and the tools are disabled until the layer is there.
const loadLayer = () => afterFirstChart().then(() => import('./DrawingLayer'));
const StyleBar = lazy(() => import('./StyleBar').then((m) => ({ default: m.StyleBar })));

/** The tools in the toolbar's order. */
export const DRAWING_TOOLS: readonly DrawingTool[] = [
  'horizontal',
  'trend',
  'vertical',
  'rectangle',
  'fibonacci',
  'measure',
];

/** A toolbar button of a drawing tool (ChartToolbar's tool shape). */
export type DrawingToolButton = {
  key: string;
  title: string;
  icon: ReactNode;
  pressed: boolean;
  disabled: boolean;
  onClick: () => void;
  group?: boolean;
};

/** What the drawing layer needs of the chart (ChartController). */
export type DrawingChart = {
  addLayer(layer: ChartLayer): () => void;
  addBarListener(listener: BarListener): () => void;
};

const idleUi = createStore<DrawingUiState>(() => ({ tool: null, selected: null, measure: null }));

/**
 * The drawing tools of one chart: the instrument's saved drawings on the chart (one query
 * per symbol, so two charts of one instrument show the same drawings), the toolbar's tool
 * buttons and what shows over the chart (hint, selection bar, measurement).
 */
export function useDrawings(
  chart: DrawingChart | null,
  symbol: string | null,
  period: Period,
  tick: number,
  colors: ChartColors,
): { tools: DrawingToolButton[]; overlay: ReactNode } {
  const loggedIn = useAuthStore((s) => s.isLoggedIn);
  const { data } = useDrawingList(symbol, loggedIn);
  useDrawingsLive();
  const [layer, setLayer] = useState<DrawingLayer | null>(null);
  const symbolRef = useRef(symbol);

  useEffect(() => {
    symbolRef.current = symbol;
  }, [symbol]);

  useEffect(() => {
    if (!chart) return;
    let cancelled = false;
    let stop = () => {};
    void loadLayer().then(({ DrawingLayer: Layer }) => {
      if (cancelled) return;
      const created = new Layer({
        create: (shape) => {
          const target = symbolRef.current;
          return target ? addDrawing(target, shape) : Promise.resolve(null);
        },
        update: (id, shape) => {
          const target = symbolRef.current;
          if (target) void changeDrawing(target, id, shape);
        },
        remove: (id) => {
          const target = symbolRef.current;
          if (target) void removeDrawing(target, id);
        },
      });
      const removeLayer = chart.addLayer(created);
      const stopBars = chart.addBarListener(created);
      stop = () => {
        stopBars();
        removeLayer();
        created.dispose();
      };
      setLayer(created);
    });
    return () => {
      cancelled = true;
      stop();
      setLayer(null);
    };
  }, [chart]);

  // another instrument: what was being drawn or selected belongs to the old one
  useEffect(() => {
    layer?.cancel();
    layer?.setTool(null);
  }, [layer, symbol]);

  useEffect(() => {
    layer?.setContext(period, tick, {
      background: colors.background,
      text: colors.text,
      up: colors.up,
      down: colors.down,
      fontFamily: colors.fontFamily,
    });
  }, [layer, period, tick, colors]);

  useEffect(() => {
    layer?.setDrawings(data ?? []);
  }, [layer, data]);

  const ui = useStore(layer?.ui ?? idleUi);
  const usable = layer !== null && symbol !== null && loggedIn;
  const tools = DRAWING_TOOLS.map((tool, i): DrawingToolButton => ({
    key: `draw-${tool}`,
    title: d.names[tool],
    icon: <DrawingToolIcon tool={tool} />,
    pressed: ui.tool === tool,
    disabled: !usable,
    onClick: () => layer?.setTool(tool),
    group: i === 0,
  }));
  // a line's menu offers an alert that follows it (the dialog is the chart's, not a frame's)
  const addAlert =
    symbol && !isChildFrame()
      ? (drawing: Drawing) => {
          if (drawing.kind !== 'horizontal' && drawing.kind !== 'trend') return;
          const level = lineLevelAt(drawing.points, Date.now() / 1000) ?? 0;
          const price = Number(formatPrice(level, tick));
          openAddAlert({
            symbol,
            tick,
            period,
            price,
            drawing: { id: drawing.id, kind: drawing.kind },
          });
        }
      : null;
  const selected = ui.selected ? (data ?? []).find((x) => x.id === ui.selected?.id) : undefined;
  return {
    tools,
    overlay: layer ? (
      <DrawingOverlay
        layer={layer}
        ui={ui}
        onAddAlert={
          addAlert && selected && (selected.kind === 'horizontal' || selected.kind === 'trend')
            ? () => addAlert(selected)
            : null
        }
      />
    ) : null,
  };
}

/** The armed tool's hint, the selected drawing's bar and the measurement, over the chart. */
function DrawingOverlay({
  layer,
  ui,
  onAddAlert,
}: {
  layer: DrawingLayer;
  ui: DrawingUiState;
  /** A line's "Add alert" (horizontal and trend lines), null for other drawings. */
  onAddAlert: (() => void) | null;
}) {
  return (
    <>
      {ui.tool && (
        <div className="chart-drawing-bar" role="status">
          <span>
            <b>{d.names[ui.tool]}</b> · {d.hints[ui.tool]}
          </span>
          <Button
            size="small"
            type="text"
            icon={<CloseOutlined />}
            aria-label={d.cancel}
            title={`${d.cancel} (${d.escape})`}
            onClick={() => layer.setTool(null)}
          />
        </div>
      )}
      {!ui.tool && ui.selected && (
        <div
          className="chart-drawing-bar"
          role="group"
          aria-label={d.selected(d.names[ui.selected.kind])}
        >
          <span className="chart-drawing-name" title={d.deleteHint}>
            {d.names[ui.selected.kind]}
          </span>
          <Suspense fallback={null}>
            <StyleBar
              key={ui.selected.id}
              kind={ui.selected.kind}
              style={ui.selected.style}
              onChange={(change) => layer.restyleSelected(change)}
            />
          </Suspense>
          {onAddAlert && (
            <Button
              size="small"
              type="text"
              icon={<BellOutlined />}
              aria-label={d.addAlertNamed(d.names[ui.selected.kind])}
              title={d.addAlert}
              onClick={onAddAlert}
            />
          )}
          <Button
            size="small"
            danger
            icon={<DeleteOutlined />}
            aria-label={d.deleteNamed(d.names[ui.selected.kind])}
            onClick={() => layer.deleteSelected()}
          >
            {d.delete}
          </Button>
        </div>
      )}
      {ui.measure && <MeasureLabel measure={ui.measure} />}
    </>
  );
}

/** Gap (px) between the label and B, and between the label and the chart's edges. */
const LABEL_GAP_PX = 8;

/**
 * The measurement beside B: right of it and above when there is room, else left of it or
 * below, else against the chart's edge (a phone's chart is narrower than the text).
 */
function MeasureLabel({ measure }: { measure: MeasureReadout }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    const room = el?.parentElement;
    if (!el || !room) return;
    const width = el.offsetWidth;
    const height = el.offsetHeight;
    const right = measure.x + LABEL_GAP_PX;
    const left = measure.x - LABEL_GAP_PX - width;
    const maxLeft = room.clientWidth - width - LABEL_GAP_PX;
    const x =
      right <= maxLeft ? right : left >= LABEL_GAP_PX ? left : Math.max(LABEL_GAP_PX, maxLeft);
    const above = measure.y - LABEL_GAP_PX - height;
    const y = above >= LABEL_GAP_PX ? above : measure.y + LABEL_GAP_PX;
    el.style.left = `${x}px`;
    el.style.top = `${y}px`;
  }, [measure]);
  return (
    <div
      ref={ref}
      className="chart-measure"
      data-direction={measure.up ? 'up' : 'down'}
      role="status"
      aria-label={d.measurement}
    >
      {measure.text}
    </div>
  );
}
