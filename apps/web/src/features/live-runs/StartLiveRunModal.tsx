import { PERIODS, type Period } from '@ct/domain';
import { Alert, Form, InputNumber, Modal, Select, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { liveRuns as messages } from '../../i18n/defaults/liveRuns';
import { useInstrumentCatalogue, useInstrumentStore } from '../../market/instruments';
import { useAccounts } from '../accounts';
import { isDefaultStrategy, useEditorStore } from '../strategy';
import { closeStartForm, startDefaults, startRun, type StartValues } from './actions';
import { lotsProblem, maxPositionsProblem } from './logic';
import { useLiveRunsUi } from './store';

const m = messages.liveRuns;

/** Read when drawn: the labels follow the language. */
const periodOptions = () => PERIODS.map((value) => ({ value, label: m.periodLabels[value] }));

/** The instruments of the catalogue, grouped by market, for a searchable select. */
function useInstrumentOptions() {
  useInstrumentCatalogue();
  const groups = useInstrumentStore((s) => s.groups);
  return useMemo(
    () =>
      (groups ?? []).map((group) => ({
        label: group.name,
        title: group.name,
        options: group.children.map((i) => ({
          value: i.id,
          label: i.name === i.id ? i.id : `${i.id} · ${i.name}`,
        })),
      })),
    [groups],
  );
}

type FormValues = {
  uuid?: string;
  symbol?: string;
  period?: Period;
  lots?: number | null;
  maxPositions?: number | null;
};

/**
 * Run live on paper: account, instrument and period (the editor's chart by default), size
 * and max open positions for the strategy selected in the editor; Start sends
 * POST /api/live-runs. The checks are the server's (domain caps), shown under each field.
 */
export function StartLiveRunModal() {
  const open = useLiveRunsUi((s) => s.startOpen);
  // mounted while open: each opening starts from the editor's chart and the current account
  return open ? <StartForm /> : null;
}

function StartForm() {
  const strategy = useEditorStore((s) => s.selected);
  const { traders } = useAccounts();
  const instruments = useInstrumentOptions();
  const [form] = Form.useForm<FormValues>();
  const [initialValues] = useState<FormValues>(startDefaults);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  const submit = async () => {
    let values: FormValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setBusy(true);
    setRefusal(null);
    const outcome = await startRun(values as StartValues);
    setBusy(false);
    if (!outcome.success) setRefusal(outcome.message);
  };

  return (
    <Modal
      open
      title={m.startTitle}
      width={520}
      className="live-run-start"
      onCancel={closeStartForm}
      onOk={() => void submit()}
      okText={m.start}
      cancelText={m.cancel}
      okButtonProps={{ loading: busy, disabled: traders.length === 0 }}
    >
      <Typography.Paragraph className="live-run-note">
        <strong>{`${m.strategy}: ${strategy ?? m.none}`}</strong>
        <br />
        {strategy && isDefaultStrategy(strategy) ? m.defaultNote : m.savedCodeNote(strategy ?? '')}
      </Typography.Paragraph>
      <Form<FormValues>
        form={form}
        initialValues={initialValues}
        layout="vertical"
        requiredMark={false}
        onFinish={() => void submit()}
      >
        <Form.Item
          name="uuid"
          label={m.account}
          rules={[{ required: true, message: m.accountRequired }]}
        >
          <Select
            aria-label={m.account}
            placeholder={traders.length === 0 ? m.noAccounts : undefined}
            options={traders.map((t) => ({
              value: t.uuid,
              label: `${t.name} · ${t.uuid.slice(0, 8)}`,
            }))}
          />
        </Form.Item>
        <div className="live-run-row">
          <Form.Item
            name="symbol"
            label={m.instrument}
            rules={[{ required: true, message: m.instrumentRequired }]}
          >
            <Select aria-label={m.instrument} showSearch options={instruments} />
          </Form.Item>
          <Form.Item
            name="period"
            label={m.period}
            rules={[{ required: true, message: m.periodRequired }]}
          >
            <Select aria-label={m.period} options={periodOptions()} />
          </Form.Item>
        </div>
        <div className="live-run-row">
          <Form.Item
            name="lots"
            label={m.lots}
            extra={m.lotsHint}
            rules={[
              {
                validator: async (_, value: number | null | undefined) => {
                  const problem = lotsProblem(value);
                  if (problem) throw new Error(problem);
                },
              },
            ]}
          >
            <InputNumber aria-label={m.lots} step={1} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item
            name="maxPositions"
            label={m.maxPositions}
            extra={m.maxPositionsHint}
            rules={[
              {
                validator: async (_, value: number | null | undefined) => {
                  const problem = maxPositionsProblem(value);
                  if (problem) throw new Error(problem);
                },
              },
            ]}
          >
            <InputNumber aria-label={m.maxPositions} step={1} style={{ width: '100%' }} />
          </Form.Item>
        </div>
        {/* Enter in a field starts the run, as the OK button does */}
        <button type="submit" hidden aria-hidden="true" tabIndex={-1} />
      </Form>
      {refusal && <Alert type="error" showIcon message={refusal} />}
    </Modal>
  );
}
