import {
  AlertOutlined,
  BellOutlined,
  FundOutlined,
  SettingOutlined,
  ShoppingCartOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Button, Empty, Typography } from 'antd';
import { lazy, Suspense, type ReactNode } from 'react';
import { lazyAfterFirstChart } from '../../../shared/firstChart';
import { navigateTo } from '../../../shared/navigation';
import { messages } from '../../../i18n/messages';
import { clickSideButton, closeSidePanel, SIDE_BUTTONS, useSidePanelStore } from './store';
import type { SideButton } from './store';

// The order ticket follows the first drawn chart (shared/firstChart.ts).
const TradingPanel = lazyAfterFirstChart(() =>
  import('./TradingPanel').then((m) => ({ default: m.TradingPanel })),
);

// The notifications' code (their list, their live channel) follows the first drawn chart too.
const NotificationsList = lazyAfterFirstChart(() =>
  import('../../notifications/NotificationsPanel').then((m) => ({ default: m.NotificationsList })),
);
const UnreadBadge = lazyAfterFirstChart(() =>
  import('../../notifications/NotificationsRuntime').then((m) => ({ default: m.UnreadBadge })),
);
// the Alerts panel (features/alerts) loads when it is opened
const AlertsPanel = lazy(() => import('../../alerts/AlertsPanel'));

const w = messages.workspace;

const BUTTONS: Record<SideButton, { label: string; icon: ReactNode }> = {
  trading: { label: w.trading, icon: <ShoppingCartOutlined /> },
  analysis: { label: w.analysis, icon: <FundOutlined /> },
  notifications: { label: w.notifications, icon: <BellOutlined /> },
  alerts: { label: w.alerts, icon: <AlertOutlined /> },
  settings: { label: w.settings, icon: <SettingOutlined /> },
  profile: { label: w.profile, icon: <UserOutlined /> },
};

/** The vertical strip of side buttons; the active one is pressed. */
export function SideButtons() {
  const active = useSidePanelStore((s) => s.active);
  return (
    <nav className="side-buttons" aria-label={w.sideButtons}>
      {SIDE_BUTTONS.map((key) => (
        <button
          key={key}
          type="button"
          className="side-button"
          title={BUTTONS[key].label}
          aria-pressed={active === key}
          onClick={() => clickSideButton(key)}
        >
          <span className="side-button-icon" aria-hidden="true">
            {BUTTONS[key].icon}
          </span>
          <span className="side-button-label">{BUTTONS[key].label}</span>
          {key === 'notifications' && (
            <Suspense fallback={null}>
              <UnreadBadge />
            </Suspense>
          )}
        </button>
      ))}
    </nav>
  );
}

function PlaceholderPanel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="side-panel-body">
      <header className="side-panel-header">
        <Typography.Title level={5} className="side-panel-title">
          {title}
        </Typography.Title>
        <Button size="small" onClick={closeSidePanel}>
          {w.close}
        </Button>
      </header>
      <div className="side-panel-content">{children}</div>
    </div>
  );
}

/** The open side panel, or nothing when it is closed. */
export function SidePanel() {
  const active = useSidePanelStore((s) => s.active);
  if (active === 'none') return null;
  let content: ReactNode;
  switch (active) {
    case 'trading':
      content = (
        <Suspense fallback={<div className="side-panel-body" aria-busy="true" />}>
          <TradingPanel />
        </Suspense>
      );
      break;
    case 'analysis':
      content = (
        <PlaceholderPanel title={w.analysis}>
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={w.analysisPlaceholder} />
        </PlaceholderPanel>
      );
      break;
    case 'notifications':
      content = (
        <PlaceholderPanel title={w.notifications}>
          <Suspense fallback={<div className="notifications-loading" aria-busy="true" />}>
            <NotificationsList />
          </Suspense>
        </PlaceholderPanel>
      );
      break;
    case 'alerts':
      content = (
        <Suspense fallback={<div className="side-panel-body" aria-busy="true" />}>
          <AlertsPanel onClose={closeSidePanel} closeText={w.close} />
        </Suspense>
      );
      break;
    case 'settings':
      content = (
        <PlaceholderPanel title={w.settings}>
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={w.settingsPlaceholder} />
        </PlaceholderPanel>
      );
      break;
    case 'profile':
      content = (
        <PlaceholderPanel title={w.profile}>
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={w.profilePlaceholder}>
            <Button onClick={() => navigateTo('/profile')}>{w.openProfile}</Button>
          </Empty>
        </PlaceholderPanel>
      );
      break;
  }
  return (
    <aside className="side-panel" aria-label={BUTTONS[active].label}>
      {content}
    </aside>
  );
}
