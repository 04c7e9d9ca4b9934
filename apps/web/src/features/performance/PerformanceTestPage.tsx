import { ArrowLeftOutlined } from '@ant-design/icons';
import { FEED_LOAD_RATES, type FeedLoadStatus } from '@ct/domain';
import { Button, Card, Segmented, Select, Slider, Space, Table, Tag, Typography } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { watchSymbol } from '../../realtime/live';
import {
  setThrottleSettings,
  THROTTLE_BOUNDS,
  THROTTLE_PRESETS,
  useLiveSettingsStore,
  type ThrottleSettings,
} from '../../realtime/settings';
import { navigateTo } from '../../shared/navigation';
import { notify } from '../../shared/notify';
import { ThemeButton } from '../../shared/ThemeButton';
import { EmbeddedCharts } from './EmbeddedCharts';
import { fetchLoadStatus, startLoad, stopLoad } from './loadControl';
import {
  PAGE_MONITOR_INTERVAL_MS,
  PRESET_TEST_SECONDS,
  reportBetween,
  TEST_SYMBOLS,
  type PresetName,
  type PresetRow,
} from './logic';
import { openMonitorPanel } from './panelStore';
import './performance.css';
import { useMonitorReports } from './useMonitorReports';
import { PriceCharts } from './PriceCharts';
import { StatsGrid } from './StatsGrid';
import { PriceSampler, useSampleStore } from './sampler';
import { perfTest as messages } from '../../i18n/defaults/perfTest';

const labels = messages.perfTest;

const PRESET_NAMES: PresetName[] = ['highPerformance', 'balanced', 'low'];
const LOAD_SECONDS = 30;

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Which preset the settings match, if any. */
function presetOf(settings: ThrottleSettings): PresetName | null {
  return (
    PRESET_NAMES.find((name) => {
      const preset = THROTTLE_PRESETS[name];
      return (
        preset.priceUpdateDelay === settings.priceUpdateDelay &&
        preset.chartDataUpdateDelay === settings.chartDataUpdateDelay &&
        preset.maxDataPoints === settings.maxDataPoints
      );
    }) ?? null
  );
}

function SymbolTable({ subscribed }: { subscribed: boolean }) {
  const samples = useSampleStore((s) => s.bySymbol);
  return (
    <ul className="perf-symbols" aria-label={labels.symbols}>
      {TEST_SYMBOLS.map((symbol) => {
        const sample = samples[symbol];
        return (
          <li key={symbol}>
            <span className="perf-symbol">{symbol}</span>
            <span className="num perf-price">{sample ? sample.price.toString() : '—'}</span>
            {sample && (
              <Tag color={sample.simulated ? 'default' : 'green'}>
                {sample.simulated ? labels.simulated : labels.live}
              </Tag>
            )}
            {!subscribed && <Tag>{labels.notSubscribed}</Tag>}
          </li>
        );
      })}
    </ul>
  );
}

function ControlPanel({ disabled }: { disabled: boolean }) {
  const throttle = useLiveSettingsStore((s) => s.throttle);
  const active = presetOf(throttle);
  const sliders = [
    ['priceUpdateDelay', labels.priceUpdateDelay, 'ms'],
    ['chartDataUpdateDelay', labels.chartDataUpdateDelay, 'ms'],
    ['maxDataPoints', labels.maxDataPoints, ''],
  ] as const;
  return (
    <>
      <div className="perf-presets">
        <span>{labels.presets}</span>
        <Segmented
          aria-label={labels.presets}
          disabled={disabled}
          value={active ?? ''}
          options={PRESET_NAMES.map((name) => ({ label: labels.presetNames[name], value: name }))}
          onChange={(name) => setThrottleSettings({ ...THROTTLE_PRESETS[name as PresetName] })}
        />
      </div>
      {sliders.map(([key, label, unit]) => {
        const bounds = THROTTLE_BOUNDS[key];
        return (
          <div className="perf-slider" key={key}>
            <label id={`perf-${key}`}>{label}</label>
            <Slider
              aria-labelledby={`perf-${key}`}
              disabled={disabled}
              min={bounds.min}
              max={bounds.max}
              step={bounds.step}
              value={throttle[key]}
              onChange={(value: number) => setThrottleSettings({ [key]: value })}
            />
            <output className="num" data-testid={`applied-${key}`}>
              {throttle[key]}
              {unit}
            </output>
          </div>
        );
      })}
      <Typography.Text type="secondary" className="perf-applied">
        {labels.applied}:{' '}
        <span className="num" data-testid="applied-settings">
          {throttle.priceUpdateDelay}/{throttle.chartDataUpdateDelay}/{throttle.maxDataPoints}
        </span>
      </Typography.Text>
    </>
  );
}

/** Internal performance test page (spec section 2, Chinese labels). */
export function PerformanceTestPage() {
  const sampler = useMemo(() => new PriceSampler(), []);
  const [subscribed, setSubscribed] = useState(true);
  const [monitoring, setMonitoring] = useState(false);
  const { monitor, report, heap } = useMonitorReports(PAGE_MONITOR_INTERVAL_MS, monitoring);
  const [presetSeconds, setPresetSeconds] = useState<number>(10);
  const [presetRows, setPresetRows] = useState<PresetRow[]>([]);
  const [presetStatus, setPresetStatus] = useState<string | null>(null);
  const presetCancelled = useRef(false);
  const [load, setLoad] = useState<FeedLoadStatus | null | undefined>(undefined);
  const [loadRate, setLoadRate] = useState<number>(100);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    sampler.start();
    return () => sampler.stop();
  }, [sampler]);

  useEffect(() => {
    if (!subscribed) return;
    const releases = TEST_SYMBOLS.map((symbol) => watchSymbol(symbol));
    return () => releases.forEach((release) => release());
  }, [subscribed]);

  // The server's load control: its state, and a clock for the time left.
  useEffect(() => {
    fetchLoadStatus().then(setLoad, () => setLoad(null));
  }, []);
  useEffect(() => {
    if (!load?.load) return;
    const timer = setInterval(() => {
      const t = Date.now();
      setNow(t);
      if (load.load && t >= load.load.until) setLoad({ load: null });
    }, 1000);
    return () => clearInterval(timer);
  }, [load]);

  useEffect(
    () => () => {
      presetCancelled.current = true;
    },
    [],
  );

  const runPresetTest = async () => {
    presetCancelled.current = false;
    const saved = { ...useLiveSettingsStore.getState().throttle };
    setPresetRows([]);
    try {
      for (const name of PRESET_NAMES) {
        const settings = { ...THROTTLE_PRESETS[name] };
        setThrottleSettings(settings);
        const before = monitor.read(performance.now());
        for (let left = presetSeconds; left > 0; left -= 1) {
          if (presetCancelled.current) return;
          setPresetStatus(labels.presetRunning(labels.presetNames[name], left));
          await wait(1000);
        }
        const row = {
          preset: name,
          settings,
          report: reportBetween(before, monitor.read(performance.now())),
        };
        setPresetRows((rows) => [...rows, row]);
      }
    } finally {
      setThrottleSettings(saved);
      setPresetStatus(null);
    }
  };

  const toggleLoad = async () => {
    try {
      if (load?.load) {
        await stopLoad();
        setLoad({ load: null });
      } else {
        setLoad(
          await startLoad({
            symbols: [...TEST_SYMBOLS],
            ticksPerSecond: loadRate,
            durationSeconds: LOAD_SECONDS,
          }),
        );
        setNow(Date.now());
      }
    } catch (error) {
      notify.error(
        `${labels.loadFailed}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  };

  const presetColumns = [
    {
      title: labels.presetColumns.preset,
      dataIndex: 'preset',
      render: (name: PresetName) => labels.presetNames[name],
    },
    {
      title: labels.presetColumns.delays,
      render: (_: unknown, row: PresetRow) =>
        `${row.settings.priceUpdateDelay} / ${row.settings.chartDataUpdateDelay}`,
    },
    {
      title: labels.presetColumns.maxPoints,
      render: (_: unknown, r: PresetRow) => r.settings.maxDataPoints,
    },
    {
      title: labels.presetColumns.messages,
      render: (_: unknown, r: PresetRow) => r.report.messagesPerSecond,
    },
    {
      title: labels.presetColumns.updates,
      render: (_: unknown, r: PresetRow) => r.report.updatesPerSecond,
    },
    {
      title: labels.presetColumns.coalesced,
      render: (_: unknown, r: PresetRow) => `${Math.round(r.report.coalescedShare * 100)}%`,
    },
    {
      title: labels.presetColumns.longTasks,
      render: (_: unknown, r: PresetRow) => `${r.report.longTasks} (${r.report.longTaskMs} ms)`,
    },
    { title: labels.presetColumns.fps, render: (_: unknown, r: PresetRow) => r.report.fps },
  ];

  const loadLeft = load?.load ? Math.max(0, Math.ceil((load.load.until - now) / 1000)) : 0;

  return (
    <div className="perf-page">
      <header className="page-header">
        <Button icon={<ArrowLeftOutlined />} onClick={() => navigateTo('/')}>
          {labels.back}
        </Button>
        <ThemeButton />
      </header>
      <main className="perf-main perf-wide">
        <Typography.Text type="secondary">{labels.title}</Typography.Text>
        <Typography.Title level={2} className="perf-title">
          {labels.heading}
        </Typography.Title>

        <div className="perf-grid">
          <Card
            size="small"
            title={labels.symbols}
            extra={
              <Button size="small" onClick={() => setSubscribed((s) => !s)}>
                {subscribed ? labels.unsubscribe : labels.subscribe}
              </Button>
            }
          >
            <SymbolTable subscribed={subscribed} />
          </Card>

          <Card
            size="small"
            title={labels.monitoring}
            extra={
              <Button
                size="small"
                type={monitoring ? 'default' : 'primary'}
                onClick={() => setMonitoring((m) => !m)}
              >
                {monitoring ? labels.stopMonitoring : labels.startMonitoring}
              </Button>
            }
          >
            <Typography.Paragraph type="secondary" className="perf-hint" role="status">
              {monitoring
                ? report
                  ? labels.monitoringOn(PAGE_MONITOR_INTERVAL_MS / 1000)
                  : labels.waitingReport
                : labels.monitoringOff}
            </Typography.Paragraph>
            <StatsGrid report={report} heap={heap} />
            <Button size="small" type="link" className="perf-panel-link" onClick={openMonitorPanel}>
              {labels.openPanel}
            </Button>
          </Card>

          <Card size="small" title={labels.controlPanel}>
            <ControlPanel disabled={presetStatus !== null} />
          </Card>

          <Card size="small" title={labels.load}>
            {load === null ? (
              <Typography.Text type="secondary">{labels.loadUnavailable}</Typography.Text>
            ) : (
              <Space wrap>
                <span>{labels.loadRate}</span>
                <Select
                  aria-label={labels.loadRate}
                  value={loadRate}
                  onChange={setLoadRate}
                  disabled={Boolean(load?.load)}
                  options={FEED_LOAD_RATES.map((rate) => ({
                    value: rate,
                    label: labels.loadRateOption(rate),
                  }))}
                  style={{ width: 120 }}
                />
                <Button onClick={() => void toggleLoad()} disabled={load === undefined}>
                  {load?.load ? labels.stopLoad : labels.startLoad}
                </Button>
                <Typography.Text type="secondary" role="status">
                  {load?.load
                    ? labels.loadRunning(load.load.ticksPerSecond, loadLeft)
                    : labels.loadIdle}
                </Typography.Text>
              </Space>
            )}
          </Card>
        </div>

        <Card size="small" title={labels.presetTest} className="perf-section">
          <div className="perf-preset-controls">
            <Space wrap>
              <span>{labels.presetDuration}</span>
              <Select
                aria-label={labels.presetDuration}
                size="small"
                value={presetSeconds}
                onChange={setPresetSeconds}
                disabled={presetStatus !== null}
                options={PRESET_TEST_SECONDS.map((n) => ({ value: n, label: labels.seconds(n) }))}
              />
              {presetStatus === null ? (
                <Button size="small" type="primary" onClick={() => void runPresetTest()}>
                  {labels.runPresetTest}
                </Button>
              ) : (
                <Button size="small" onClick={() => (presetCancelled.current = true)}>
                  {labels.stopPresetTest}
                </Button>
              )}
            </Space>
          </div>
          {presetStatus && (
            <Typography.Paragraph role="status" className="perf-hint">
              {presetStatus}
            </Typography.Paragraph>
          )}
          <Table<PresetRow>
            size="small"
            rowKey="preset"
            pagination={false}
            columns={presetColumns}
            dataSource={presetRows}
            locale={{ emptyText: labels.presetEmpty }}
            scroll={{ x: 'max-content' }}
          />
        </Card>

        <Card size="small" title={labels.charts} className="perf-section">
          <PriceCharts symbols={TEST_SYMBOLS} sampler={sampler} />
        </Card>

        <Card size="small" title={labels.embedded} className="perf-section">
          <EmbeddedCharts sampler={sampler} />
        </Card>
      </main>
    </div>
  );
}
