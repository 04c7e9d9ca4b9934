import {
  CHANNEL_CONDITIONS,
  CROSSING_CONDITIONS,
  INDICATOR_LINES,
  formatPrice,
  type AlertCondition,
  type AlertFrequency,
  type AlertKind,
  type IndicatorLine,
} from '@ct/domain';
import { Form, Input, InputNumber, Modal, Select, Typography } from 'antd';
import { useState } from 'react';
import { alerts as messages } from '../../i18n/defaults/alerts';
import type { CreateAlertRequest } from './api';
import {
  closeAddAlert,
  useAlertDialog,
  type AlertDraft,
  type IndicatorChoice,
} from './dialogStore';
import { addAlert } from './queries';
import './alerts.css';

const a = messages.alerts;

type Values = {
  kind: AlertKind;
  condition: AlertCondition;
  level?: number;
  upper?: number;
  lower?: number;
  /** The indicator's line (a Bollinger band, MACD's signal…). */
  line?: string;
  /** 'value' (a threshold) or `${choice}:${line}`: another line of the chart's indicators. */
  against?: string;
  threshold?: number;
  frequency: AlertFrequency;
  message?: string;
  webhook_url?: string;
};

const onTick = (price: number, tick: number) => Number(formatPrice(price, tick));

/** The lines an indicator alert may cross: the chart's indicators' lines but its own. */
function againstOptions(draft: AlertDraft, line: string) {
  const indicator = draft.indicator;
  if (!indicator) return [];
  const choices: readonly IndicatorChoice[] = [indicator.chosen, ...indicator.others];
  const options: { value: string; label: string }[] = [{ value: 'value', label: a.value }];
  choices.forEach((choice, i) => {
    for (const name of INDICATOR_LINES[choice.kind]) {
      if (i === 0 && name === line) continue;
      options.push({ value: `${i}:${name}`, label: a.lineOf(choice.label, name) });
    }
  });
  return options;
}

function lineOf(choice: IndicatorChoice, line: string): IndicatorLine {
  return { kind: choice.kind, params: choice.params, line };
}

/** The request of the form's values (the fields of its kind only). */
function requestOf(draft: AlertDraft, values: Values): CreateAlertRequest {
  const common = {
    symbol_id: draft.symbol,
    kind: values.kind,
    condition: values.condition,
    frequency: values.frequency,
    ...(draft.period ? { period: draft.period } : {}),
    ...(values.message ? { message: values.message } : {}),
    ...(values.webhook_url ? { webhook_url: values.webhook_url } : {}),
  };
  switch (values.kind) {
    case 'channel':
      return { ...common, upper: values.upper, lower: values.lower };
    case 'drawing':
      return { ...common, drawing_id: draft.drawing?.id };
    case 'indicator': {
      const indicator = draft.indicator!;
      const line = lineOf(indicator.chosen, values.line ?? 'value');
      const against = values.against ?? 'value';
      if (against === 'value') {
        return { ...common, indicator: { line, threshold: values.threshold } };
      }
      const [index, name] = against.split(':');
      const choice = [indicator.chosen, ...indicator.others][Number(index)]!;
      return { ...common, indicator: { line, other: lineOf(choice, name ?? 'value') } };
    }
    default:
      return { ...common, level: values.level };
  }
}

function initialValues(draft: AlertDraft): Values {
  const band = Math.max(draft.tick, draft.price * 0.005);
  const chosen = draft.indicator?.chosen;
  return {
    kind: draft.drawing ? 'drawing' : chosen ? 'indicator' : 'price',
    condition: 'crossing',
    level: draft.price,
    upper: onTick(draft.price + band, draft.tick),
    lower: onTick(draft.price - band, draft.tick),
    line: 'value',
    against: 'value',
    threshold: chosen?.kind === 'rsi' ? 70 : chosen?.kind === 'macd' ? 0 : draft.price,
    frequency: 'once',
  };
}

function AlertForm({ draft }: { draft: AlertDraft }) {
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const initial = initialValues(draft);
  const kind = Form.useWatch('kind', form) ?? initial.kind;
  const line = Form.useWatch('line', form) ?? 'value';
  const against = Form.useWatch('against', form) ?? 'value';
  const submit = async () => {
    const values = await form.validateFields();
    setSaving(true);
    const saved = await addAlert(requestOf(draft, { ...initial, ...values }), draft.tick);
    setSaving(false);
    if (saved) closeAddAlert();
  };
  const kinds: AlertKind[] = ['price', 'channel'];
  if (draft.drawing) kinds.unshift('drawing');
  if (draft.indicator) kinds.unshift('indicator');
  const conditions = kind === 'channel' ? CHANNEL_CONDITIONS : CROSSING_CONDITIONS;
  const chosen = draft.indicator?.chosen;
  const lines = chosen ? INDICATOR_LINES[chosen.kind] : [];
  const priceInput = (label: string) => (
    <InputNumber
      style={{ width: '100%' }}
      step={draft.tick}
      formatter={(v) => (v === undefined || v === null ? '' : String(v))}
      aria-label={label}
    />
  );
  return (
    <Modal
      open
      title={a.dialogTitle(draft.symbol)}
      okText={a.create}
      cancelText={a.cancel}
      confirmLoading={saving}
      onOk={() => void submit()}
      onCancel={closeAddAlert}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={initial}
        onFinish={() => void submit()}
        onValuesChange={(changed: Partial<Values>, all: Values) => {
          // a channel is entered or left, a level crossed: the condition follows the kind
          if (changed.kind === undefined) return;
          const family: readonly string[] =
            changed.kind === 'channel' ? CHANNEL_CONDITIONS : CROSSING_CONDITIONS;
          if (!family.includes(all.condition)) {
            form.setFieldValue('condition', family[0]);
          }
        }}
      >
        {kinds.length > 1 && (
          <Form.Item name="kind" label={a.kind}>
            <Select
              aria-label={a.kind}
              options={kinds.map((k) => ({
                value: k,
                label:
                  k === 'drawing' && draft.drawing
                    ? `${a.kinds.drawing}: ${a.drawingNames[draft.drawing.kind]}`
                    : k === 'indicator' && chosen
                      ? `${a.kinds.indicator}: ${chosen.label}`
                      : a.kinds[k],
              }))}
            />
          </Form.Item>
        )}
        {kind === 'indicator' && lines.length > 1 && (
          <Form.Item name="line" label={a.indicatorLine}>
            <Select
              aria-label={a.indicatorLine}
              options={lines.map((name) => ({ value: name, label: name }))}
            />
          </Form.Item>
        )}
        <Form.Item name="condition" label={a.condition}>
          <Select
            aria-label={a.condition}
            options={conditions.map((c) => ({ value: c, label: a.conditions[c] }))}
          />
        </Form.Item>
        {kind === 'price' && (
          <Form.Item name="level" label={a.level} rules={[{ required: true }]}>
            {priceInput(a.level)}
          </Form.Item>
        )}
        {kind === 'channel' && (
          <div className="alert-dialog-pair">
            <Form.Item name="upper" label={a.upper} rules={[{ required: true }]}>
              {priceInput(a.upper)}
            </Form.Item>
            <Form.Item
              name="lower"
              label={a.lower}
              dependencies={['upper']}
              rules={[
                { required: true },
                ({ getFieldValue }) => ({
                  validator: (_, value: number | undefined) =>
                    value === undefined || value < (getFieldValue('upper') as number)
                      ? Promise.resolve()
                      : Promise.reject(new Error(`${a.lower} < ${a.upper}`)),
                }),
              ]}
            >
              {priceInput(a.lower)}
            </Form.Item>
          </div>
        )}
        {kind === 'drawing' && (
          <Typography.Paragraph type="secondary" className="alert-dialog-note">
            {a.followsLine}
          </Typography.Paragraph>
        )}
        {kind === 'indicator' && (
          <>
            <Form.Item name="against" label={a.against}>
              <Select aria-label={a.against} options={againstOptions(draft, line)} />
            </Form.Item>
            {against === 'value' && (
              <Form.Item name="threshold" label={a.threshold} rules={[{ required: true }]}>
                <InputNumber style={{ width: '100%' }} aria-label={a.threshold} />
              </Form.Item>
            )}
            <Typography.Paragraph type="secondary" className="alert-dialog-note">
              {a.barClose(draft.period ?? '1m')}
            </Typography.Paragraph>
          </>
        )}
        <Form.Item name="frequency" label={a.frequency}>
          <Select
            aria-label={a.frequency}
            options={(['once', 'once_per_bar', 'every_time'] as const).map((f) => ({
              value: f,
              label: a.frequencies[f],
            }))}
          />
        </Form.Item>
        <Form.Item name="message" label={a.message} extra={a.messageHint}>
          <Input maxLength={1000} />
        </Form.Item>
        <Form.Item name="webhook_url" label={a.webhook}>
          <Input type="url" maxLength={2000} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The "Add alert" dialog while one is asked for (loaded with the first request). */
export default function AddAlertDialog() {
  const draft = useAlertDialog((s) => s.draft);
  if (!draft) return null;
  const key = `${draft.symbol}:${draft.price}:${draft.drawing?.id ?? ''}:${draft.indicator?.chosen.label ?? ''}`;
  return <AlertForm key={key} draft={draft} />;
}
