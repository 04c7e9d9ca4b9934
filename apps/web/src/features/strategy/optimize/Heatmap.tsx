import type { OptimizationObjective, OptimizationTrial } from '@ct/domain';
import { Empty, Select, Space, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { optimize as messages } from '../../../i18n/defaults/optimize';
import { cellKey, heatmap, objectiveValue, shade, valueText } from './logic';

const m = messages.optimize;

/** Red (worst) through amber to green (best), readable text on both themes. */
const colour = (t: number) => `hsl(${Math.round(t * 120)}, 65%, 42%)`;

const figure = (value: number | null) =>
  value === null ? '-' : Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(2);

/** The objective over two chosen parameters as a grid of coloured cells, best per cell. */
export function Heatmap({
  trials,
  names,
  objective,
}: {
  trials: readonly OptimizationTrial[];
  names: readonly string[];
  objective: OptimizationObjective;
}) {
  const [x, setX] = useState(names[0] ?? '');
  const [y, setY] = useState(names[1] ?? '');
  const map = useMemo(() => heatmap(trials, x, y), [trials, x, y]);
  if (names.length < 2) return <Empty description={m.heatmapNeedsTwo} />;
  const label = m.heatmapLabel(m.objectives[objective], x, y);
  const options = names.map((name) => ({ value: name, label: name }));
  return (
    <div className="opt-heatmap">
      <Space wrap>
        <label className="opt-field">
          <span>{m.heatmapX}</span>
          <Select aria-label={m.heatmapX} value={x} onChange={setX} options={options} />
        </label>
        <label className="opt-field">
          <span>{m.heatmapY}</span>
          <Select aria-label={m.heatmapY} value={y} onChange={setY} options={options} />
        </label>
      </Space>
      <div className="opt-heatmap-scroll">
        <table className="opt-heatmap-grid" aria-label={label}>
          <caption>{label}</caption>
          <thead>
            <tr>
              <th scope="col">
                {y} \ {x}
              </th>
              {map.xs.map((xv) => (
                <th scope="col" key={String(xv)} className="num">
                  {valueText(xv)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {map.ys.map((yv) => (
              <tr key={String(yv)}>
                <th scope="row" className="num">
                  {valueText(yv)}
                </th>
                {map.xs.map((xv) => {
                  const cell = map.cells.get(cellKey(xv, yv));
                  const t = shade(cell?.objective ?? null, map.min, map.max);
                  const value = figure(objectiveValue(objective, cell?.objective ?? null));
                  return (
                    <td
                      key={String(xv)}
                      className="num opt-heatmap-cell"
                      style={t === null ? undefined : { background: colour(t), color: '#fff' }}
                      title={m.heatmapCell(`${x}=${valueText(xv)}`, `${y}=${valueText(yv)}`, value)}
                    >
                      {cell ? value : ''}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="opt-heatmap-legend" aria-hidden="true">
        <Typography.Text type="secondary">{m.heatmapLow}</Typography.Text>
        <span className="opt-heatmap-ramp" />
        <Typography.Text type="secondary">{m.heatmapHigh}</Typography.Text>
      </div>
    </div>
  );
}
