import { PlayCircleOutlined } from '@ant-design/icons';
import {
  DEFAULT_LOADED_BARS,
  OPTIMIZATION_METHODS,
  OPTIMIZATION_OBJECTIVES,
  formatCount,
  parseStrategyParams,
  type StrategyParam,
} from '@ct/domain';
import {
  Alert,
  Button,
  Checkbox,
  Empty,
  Input,
  InputNumber,
  Select,
  Space,
  Switch,
  Typography,
} from 'antd';
import { useMemo, useState } from 'react';
import { optimize as messages } from '../../../i18n/defaults/optimize';
import { workbenchTarget } from '../actions';
import { useEditorStore } from '../store';
import { startOptimization } from './actions';
import { initialSetup, planSetup, type ParamField, type SetupForm } from './logic';
import { useOptimizeStore } from './store';

const m = messages.optimize;

function ParamRow({
  field,
  onChange,
}: {
  field: ParamField;
  onChange: (patch: Partial<ParamField>) => void;
}) {
  const number = (key: 'min' | 'max' | 'step', label: string) => (
    <label className="opt-field">
      <span>{label}</span>
      <InputNumber
        aria-label={m.fieldNamed(label, field.name)}
        value={field[key]}
        disabled={!field.vary}
        step={field.kind === 'int' ? 1 : undefined}
        onChange={(value) => onChange({ [key]: value ?? null })}
      />
    </label>
  );
  return (
    <div className="opt-param" role="group" aria-label={field.name}>
      <Checkbox
        className="opt-param-name"
        checked={field.vary}
        aria-label={m.varyNamed(field.name)}
        onChange={(event) => onChange({ vary: event.target.checked })}
      >
        <Typography.Text strong>{field.name}</Typography.Text>{' '}
        <Typography.Text type="secondary">
          {m.defaultValue} {String(field.default)} · {field.kind}
        </Typography.Text>
      </Checkbox>
      {field.kind === 'string' ? (
        <label className="opt-field opt-field-wide">
          <span>{m.values}</span>
          <Input
            aria-label={m.fieldNamed(m.values, field.name)}
            value={field.values}
            disabled={!field.vary}
            onChange={(event) => onChange({ values: event.target.value })}
          />
        </label>
      ) : (
        <>
          {number('min', m.min)}
          {number('max', m.max)}
          {number('step', m.step)}
        </>
      )}
    </div>
  );
}

/** The form of a new optimisation, for the declared parameters of the editor's code. */
function SetupFields({ declared }: { declared: StrategyParam[] }) {
  const [form, setForm] = useState<SetupForm>(() => initialSetup(declared));
  const starting = useOptimizeStore((s) => s.starting);
  const plan = useMemo(() => planSetup(form, declared), [form, declared]);
  const patch = (change: Partial<SetupForm>) => setForm((f) => ({ ...f, ...change }));
  const patchParam = (index: number, change: Partial<ParamField>) =>
    setForm((f) => ({
      ...f,
      params: f.params.map((p, i) => (i === index ? { ...p, ...change } : p)),
    }));
  const chart = workbenchTarget();
  return (
    <div className="opt-setup">
      {chart?.symbol && (
        <Typography.Text type="secondary">
          {m.target(chart.symbol, chart.period, DEFAULT_LOADED_BARS)}
        </Typography.Text>
      )}
      <section aria-label={m.parameters}>
        <Typography.Title level={5}>{m.parameters}</Typography.Title>
        {form.params.map((field, i) => (
          <ParamRow key={field.name} field={field} onChange={(c) => patchParam(i, c)} />
        ))}
      </section>
      <label className="opt-field opt-field-wide">
        <span>{m.constraint}</span>
        <Input
          aria-label={m.constraint}
          placeholder={m.constraintPlaceholder}
          value={form.constraint}
          onChange={(event) => patch({ constraint: event.target.value })}
        />
        <Typography.Text type="secondary" className="opt-hint">
          {m.constraintHint}
        </Typography.Text>
      </label>
      <div className="opt-row">
        <label className="opt-field">
          <span>{m.objective}</span>
          <Select
            aria-label={m.objective}
            value={form.objective}
            style={{ minWidth: 200 }}
            onChange={(objective) => patch({ objective })}
            options={OPTIMIZATION_OBJECTIVES.map((value) => ({
              value,
              label: m.objectives[value],
            }))}
          />
        </label>
        <label className="opt-field">
          <span>{m.method}</span>
          <Select
            aria-label={m.method}
            value={form.method}
            style={{ minWidth: 200 }}
            onChange={(method) => patch({ method })}
            options={OPTIMIZATION_METHODS.map((value) => ({ value, label: m.methods[value] }))}
          />
        </label>
        {form.method === 'random' && (
          <>
            <label className="opt-field">
              <span>{m.maxTrials}</span>
              <InputNumber
                aria-label={m.maxTrials}
                min={1}
                value={form.maxTrials}
                onChange={(value) => patch({ maxTrials: value ?? null })}
              />
            </label>
            <label className="opt-field">
              <span>{m.seed}</span>
              <InputNumber
                aria-label={m.seed}
                min={0}
                value={form.seed}
                onChange={(value) => patch({ seed: value ?? null })}
              />
            </label>
          </>
        )}
      </div>
      <section aria-label={m.walkForward} className="opt-walk">
        <Space align="center">
          <Switch
            aria-label={m.walkForward}
            checked={form.walkForward}
            onChange={(walkForward) => patch({ walkForward })}
          />
          <span>
            <Typography.Text strong>{m.walkForward}</Typography.Text>
            <br />
            <Typography.Text type="secondary">{m.walkForwardHint}</Typography.Text>
          </span>
        </Space>
        {form.walkForward && (
          <div className="opt-row">
            <label className="opt-field">
              <span>{m.folds}</span>
              <InputNumber
                aria-label={m.folds}
                min={1}
                value={form.folds}
                onChange={(value) => patch({ folds: value ?? null })}
              />
            </label>
            <label className="opt-field">
              <span>{m.inSamplePct}</span>
              <InputNumber
                aria-label={m.inSamplePct}
                min={1}
                max={99}
                value={form.inSamplePct}
                onChange={(value) => patch({ inSamplePct: value ?? null })}
              />
            </label>
            <Checkbox
              checked={form.anchored}
              onChange={(event) => patch({ anchored: event.target.checked })}
            >
              {m.anchored}
            </Checkbox>
          </div>
        )}
      </section>
      <footer className="opt-setup-footer">
        {plan.ok ? (
          <Typography.Text strong data-testid="optimize-count" className="num">
            {m.count(formatCount(plan.combinations), formatCount(plan.backtests))}
          </Typography.Text>
        ) : (
          <Alert type="warning" showIcon title={plan.problem} className="opt-problem" />
        )}
        <Button
          type="primary"
          icon={<PlayCircleOutlined />}
          disabled={!plan.ok}
          loading={starting}
          onClick={() => void startOptimization(form)}
        >
          {m.start}
        </Button>
      </footer>
    </div>
  );
}

/** The Setup tab: the editor's declared PARAMS (read from the code, not run) and the form. */
export function SetupTab() {
  const code = useEditorStore((s) => s.code);
  const parsed = useMemo(() => parseStrategyParams(code), [code]);
  if (!parsed.ok) return <Alert type="error" showIcon title={m.paramsError(parsed.error)} />;
  if (parsed.params.length === 0) return <Empty description={m.noParams} />;
  // a new form when the declared parameters change (names and defaults)
  const key = parsed.params.map((p) => `${p.name}=${String(p.default)}`).join(',');
  return <SetupFields key={key} declared={parsed.params} />;
}
