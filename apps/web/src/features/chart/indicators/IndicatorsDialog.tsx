import { DeleteOutlined, EyeInvisibleOutlined, EyeOutlined, PlusOutlined } from '@ant-design/icons';
import {
  INDICATOR_KINDS,
  INDICATOR_PARAMS,
  INDICATOR_PLACEMENT,
  MAX_INDICATORS_PER_CHART,
  resolveIndicatorParams,
  type IndicatorConfig,
  type IndicatorKind,
} from '@ct/domain';
import { Alert, Button, InputNumber, Modal, Spin, Tooltip } from 'antd';
import { messages } from '../../../i18n/firstScreen';
import { indicatorLabel } from './labels';
import {
  canAdd,
  flushChartIndicators,
  newIndicator,
  PARAM_SAVE_DELAY_MS,
  setChartIndicators,
  useChartIndicators,
} from './queries';
import './indicators.css';

const m = messages.indicators;

/** The kinds offered under 'Add indicator' (volume is the chart's own pane: shown or hidden). */
const ADDABLE: readonly IndicatorKind[] = INDICATOR_KINDS.filter((k) => k !== 'volume');

/** The volume row when the chart has no volume setting yet: shown, as every chart starts. */
const DEFAULT_VOLUME: IndicatorConfig = { id: 'volume', kind: 'volume', params: {}, visible: true };

function makeId(): string {
  return `i${Math.random().toString(36).slice(2, 10)}`;
}

function Row({
  config,
  onChange,
  onRemove,
}: {
  config: IndicatorConfig;
  onChange: (next: IndicatorConfig, delayed?: boolean) => void;
  onRemove?: () => void;
}) {
  const label = indicatorLabel(config);
  const params = resolveIndicatorParams(config.kind, config.params);
  const placement = INDICATOR_PLACEMENT[config.kind] === 'price' ? m.pricePane : m.ownPane;
  return (
    <li
      className={config.visible ? 'indicator-row' : 'indicator-row indicator-row-hidden'}
      data-indicator={config.kind}
    >
      {config.kind === 'volume' ? (
        <span className="indicator-swatch indicator-swatch-volume" aria-hidden="true" />
      ) : (
        <input
          type="color"
          className="indicator-swatch"
          aria-label={m.colorOf(label)}
          value={config.color ?? '#2962ff'}
          onChange={(e) => onChange({ ...config, color: e.target.value }, true)}
        />
      )}
      <span className="indicator-name">
        <strong>{label}</strong>
        <span className="indicator-meta">
          {m.names[config.kind]} · {placement}
          {!config.visible && ` · ${m.hidden}`}
        </span>
      </span>
      <span className="indicator-params">
        {INDICATOR_PARAMS[config.kind].map((spec) => (
          <label key={spec.name} className="indicator-param">
            <span>{m.params[spec.name] ?? spec.name}</span>
            <InputNumber
              size="small"
              aria-label={m.paramOf(m.params[spec.name] ?? spec.name, label)}
              min={spec.min}
              max={spec.max}
              step={spec.step}
              precision={spec.integer ? 0 : 1}
              value={params[spec.name]}
              onChange={(value) => {
                if (typeof value !== 'number' || !Number.isFinite(value)) return;
                onChange({ ...config, params: { ...params, [spec.name]: value } }, true);
              }}
            />
          </label>
        ))}
      </span>
      <span className="indicator-actions">
        <Tooltip title={config.visible ? m.hide(label) : m.show(label)}>
          <Button
            type="text"
            size="small"
            aria-label={config.visible ? m.hide(label) : m.show(label)}
            aria-pressed={!config.visible}
            icon={config.visible ? <EyeOutlined /> : <EyeInvisibleOutlined />}
            onClick={() => onChange({ ...config, visible: !config.visible })}
          />
        </Tooltip>
        {onRemove && (
          <Tooltip title={m.remove(label)}>
            <Button
              type="text"
              size="small"
              danger
              aria-label={m.remove(label)}
              icon={<DeleteOutlined />}
              onClick={onRemove}
            />
          </Tooltip>
        )}
      </span>
    </li>
  );
}

/**
 * The chart's indicator list: add several, edit their parameters and colour, hide and
 * remove them. Each change shows on the chart at once and is saved for the user on the
 * server (parameters typed in wait for a pause).
 */
export function IndicatorsDialog({
  chartKey,
  open,
  onClose,
}: {
  chartKey: string;
  open: boolean;
  onClose: () => void;
}) {
  const query = useChartIndicators(chartKey);
  const list = query.data ?? [];
  const volume = list.find((c) => c.kind === 'volume');
  const others = list.filter((c) => c.kind !== 'volume');
  const room = canAdd(list);

  const save = (next: IndicatorConfig[], delayed = false) =>
    void setChartIndicators(chartKey, next, { delayMs: delayed ? PARAM_SAVE_DELAY_MS : 0 });
  const replace = (config: IndicatorConfig, delayed?: boolean) =>
    save(
      list.some((c) => c.id === config.id)
        ? list.map((c) => (c.id === config.id ? config : c))
        : [...list, config],
      delayed,
    );
  const close = () => {
    void flushChartIndicators(chartKey);
    onClose();
  };

  return (
    <Modal
      open={open}
      title={m.title}
      onCancel={close}
      footer={
        <Button type="primary" onClick={close}>
          {m.close}
        </Button>
      }
      width="min(600px, calc(100vw - 16px))"
      className="indicators-dialog"
      destroyOnHidden
    >
      {query.isPending && query.fetchStatus !== 'idle' ? (
        <div className="indicators-loading" role="status">
          <Spin size="small" /> {m.loading}
        </div>
      ) : query.isError ? (
        <Alert
          type="error"
          showIcon
          title={`${m.loadFailed}: ${query.error.message}`}
          action={
            <Button size="small" onClick={() => void query.refetch()}>
              {m.retry}
            </Button>
          }
        />
      ) : (
        <>
          <section aria-label={m.add} className="indicators-add">
            <h4>{m.add}</h4>
            <div className="indicators-add-list">
              {ADDABLE.map((kind) => (
                <Button
                  key={kind}
                  size="small"
                  icon={<PlusOutlined />}
                  disabled={!room}
                  aria-label={m.addKind(m.names[kind])}
                  onClick={() => save([...list, newIndicator(kind, list, makeId)])}
                >
                  {m.names[kind]}
                </Button>
              ))}
            </div>
            {!room && (
              <p className="indicators-note" role="status">
                {m.limit(MAX_INDICATORS_PER_CHART)}
              </p>
            )}
          </section>
          <section aria-label={m.onChart} className="indicators-current">
            <h4>{m.onChart}</h4>
            {others.length === 0 && <p className="indicators-note">{m.empty}</p>}
            <ul className="indicator-rows">
              {others.map((config) => (
                <Row
                  key={config.id}
                  config={config}
                  onChange={replace}
                  onRemove={() => save(list.filter((c) => c.id !== config.id))}
                />
              ))}
              <Row config={volume ?? DEFAULT_VOLUME} onChange={replace} />
            </ul>
          </section>
        </>
      )}
    </Modal>
  );
}
