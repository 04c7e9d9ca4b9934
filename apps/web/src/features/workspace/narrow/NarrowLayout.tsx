import { LineChartOutlined, UserOutlined } from '@ant-design/icons';
import { Segmented, Tabs, Typography } from 'antd';
import { Suspense, useState } from 'react';
import { lazyAfterFirstChart } from '../../../shared/firstChart';
import { setThemeMode, useThemeStore } from '../../../shared/theme';
import type { ThemeMode } from '../../../shared/theme';
import { chooseLanguage, languageName, useLanguageStore } from '../../../shared/language';
import { LANGUAGES, type Language } from '../../../i18n/texts';
import { messages as firstScreen } from '../../../i18n/firstScreen';
import { notifications } from '../../../i18n/defaults/notifications';
import { shell } from '../../../i18n/defaults/shell';
import { AccountSection } from '../../accounts';
import { AccountBar } from '../../trading';
import { ChartCellView } from '../chart-grid/ChartCellView';
import { DEFAULT_CELLS, useActiveChart } from '../../../shared/chartGrid';
import { TRADE_SUB_TAB_LABELS, TRADE_SUB_TABS, type TradeSubTab } from '../bottom-panel/store';
import { useMobileTradingModal } from './mobileModal';
import { loadAssistantLauncher } from '../../assistant/lazy';
import { loadNotificationsPanel, loadNotificationsRuntime } from '../../notifications/lazy';
import { loadNarrowTradingRuntime } from '../../trading/lazy';

/** This module's texts (their sections, shared with messages.ts). */
const messages = { ...firstScreen, ...notifications, ...shell };

// The tables, the trading modals and the assistant's button follow the first drawn chart
// (shared/firstChart.ts): the Chart tab is what a phone shows first.
const TradeTable = lazyAfterFirstChart(() =>
  import('../trade/TradeTables').then(({ TRADE_TABLES }) => ({
    default: function TradeTable({ tab }: { tab: TradeSubTab }) {
      const Table = TRADE_TABLES.find((t) => t.key === tab)!.Table;
      return <Table active narrow />;
    },
  })),
);
const NarrowTradingRuntime = lazyAfterFirstChart(() =>
  loadNarrowTradingRuntime().then((m) => ({
    default: m.NarrowTradingRuntime,
  })),
);
const AssistantLauncher = lazyAfterFirstChart(() =>
  loadAssistantLauncher().then((m) => ({ default: m.AssistantLauncher })),
);

const NotificationsRuntime = lazyAfterFirstChart(() =>
  loadNotificationsRuntime().then((m) => ({
    default: m.NotificationsRuntime,
  })),
);
const UnreadBadge = lazyAfterFirstChart(() =>
  loadNotificationsRuntime().then((m) => ({ default: m.UnreadBadge })),
);
const NotificationsList = lazyAfterFirstChart(() =>
  loadNotificationsPanel().then((m) => ({ default: m.NotificationsList })),
);

const n = messages.narrow;

type MainTab = 'trading' | 'my';

function TradingView() {
  // Forced to Chart on entry (spec section 4): local state starts there on every mount.
  const [subTab, setSubTab] = useState<string>('chart');
  // The Chart tab shows the active chart of the grid, full width.
  const activeChart = useActiveChart() ?? DEFAULT_CELLS[0]!;
  return (
    <Tabs
      className="narrow-tabs"
      tabBarGutter={16}
      activeKey={subTab}
      onChange={setSubTab}
      items={[
        {
          key: 'chart',
          label: n.chart,
          children: (
            <>
              <ChartCellView cell={activeChart} index={0} active={false} mobile />
              {/* Only with the chart: the tables and My fill the width with controls. */}
              <Suspense fallback={null}>
                <AssistantLauncher placement="above-bottom-bar" />
              </Suspense>
            </>
          ),
        },
        ...TRADE_SUB_TABS.map((key) => ({
          key,
          label: TRADE_SUB_TAB_LABELS[key],
          children:
            subTab === key ? (
              <Suspense fallback={<div className="page-loading" aria-busy="true" />}>
                <TradeTable tab={key} />
              </Suspense>
            ) : null,
        })),
      ]}
    />
  );
}

/** A setting of My: its title over one choice among a few, as a full-width segmented row. */
function ChoiceSection<T extends string>({
  id,
  title,
  value,
  options,
  onChange,
}: {
  id: string;
  title: string;
  value: T;
  options: { value: T; label: string }[];
  onChange: (value: T) => void;
}) {
  return (
    <section className="my-section" aria-labelledby={id}>
      <Typography.Title level={5} id={id} className="my-section-title">
        {title}
      </Typography.Title>
      <Segmented<T>
        block
        size="large"
        aria-label={title}
        value={value}
        onChange={onChange}
        options={options}
      />
    </section>
  );
}

function ThemeSection() {
  const mode = useThemeStore((s) => s.mode);
  return (
    <ChoiceSection<ThemeMode>
      id="my-theme-heading"
      title={messages.theme.section}
      value={mode}
      onChange={setThemeMode}
      options={[
        { value: 'light', label: messages.theme.light },
        { value: 'dark', label: messages.theme.dark },
      ]}
    />
  );
}

function LanguageSection() {
  const language = useLanguageStore((s) => s.language);
  return (
    <ChoiceSection<Language>
      id="my-language-heading"
      title={messages.language.section}
      value={language}
      onChange={chooseLanguage}
      options={LANGUAGES.map((option) => ({ value: option, label: languageName(option) }))}
    />
  );
}

/** My's notifications: the same list and settings as the wide layout's side panel. */
function NotificationsSection() {
  return (
    <section className="my-section" aria-labelledby="my-notifications-heading">
      <Typography.Title level={5} id="my-notifications-heading" className="my-section-title">
        {messages.notifications.title}
      </Typography.Title>
      <Suspense fallback={<div className="notifications-loading" aria-busy="true" />}>
        <NotificationsList />
      </Suspense>
    </section>
  );
}

/** Narrow workspace: Trading (chart and trade tables) and My, switched by a bottom bar. */
export function NarrowLayout() {
  const [tab, setTab] = useState<MainTab>('trading');
  useMobileTradingModal();
  return (
    <div className="workspace-narrow">
      <Suspense fallback={null}>
        <NarrowTradingRuntime />
      </Suspense>
      <Suspense fallback={null}>
        <NotificationsRuntime />
      </Suspense>
      <div className="narrow-content">
        {tab === 'trading' ? (
          <TradingView />
        ) : (
          <div className="my-view">
            <AccountBar variant="card" />
            <AccountSection />
            <NotificationsSection />
            <ThemeSection />
            <LanguageSection />
          </div>
        )}
      </div>
      <nav className="bottom-bar" aria-label={n.bottomBar}>
        {(
          [
            ['trading', n.trading, <LineChartOutlined key="i" />],
            ['my', n.my, <UserOutlined key="i" />],
          ] as const
        ).map(([key, label, icon]) => (
          <button
            key={key}
            type="button"
            className="bottom-bar-button"
            aria-current={tab === key ? 'page' : undefined}
            onClick={() => setTab(key)}
          >
            <span aria-hidden="true" className="bottom-bar-icon">
              {icon}
            </span>
            <span>{label}</span>
            {key === 'my' && (
              <Suspense fallback={null}>
                <UnreadBadge />
              </Suspense>
            )}
          </button>
        ))}
      </nav>
    </div>
  );
}
