import {
  AlertOutlined,
  BellOutlined,
  FundOutlined,
  SettingOutlined,
  ShoppingCartOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { lazy, Suspense, type ReactNode } from 'react';
import { lazyAfterFirstChart } from '../../../shared/firstChart';
import { messages } from '../../../i18n/firstScreen';
import { clickSideButton, closeSidePanel, SIDE_BUTTONS, useSidePanelStore } from './store';
import type { SideButton } from './store';
import { loadAlertsPanel } from '../../alerts/lazy';
import { loadNotificationsRuntime } from '../../notifications/lazy';

// The order ticket follows the first drawn chart (shared/firstChart.ts).
const TradingPanel = lazyAfterFirstChart(() =>
  import('./TradingPanel').then((m) => ({ default: m.TradingPanel })),
);

// The notifications' badge (and their live channel) follows the first drawn chart too.
const UnreadBadge = lazyAfterFirstChart(() =>
  loadNotificationsRuntime().then((m) => ({ default: m.UnreadBadge })),
);
// The panels drawn in the common frame (antd's Typography and Empty) follow it too.
const PlaceholderPanels = lazyAfterFirstChart(() =>
  import('./PlaceholderPanels').then((m) => ({ default: m.PlaceholderPanels })),
);
// the Alerts panel (features/alerts) loads when it is opened
const AlertsPanel = lazy(() => loadAlertsPanel());

const w = messages.workspace;

// Labels are read when drawn (getters), so in the language chosen.
const BUTTONS: Record<SideButton, { readonly label: string; icon: ReactNode }> = {
  trading: {
    get label() {
      return w.trading;
    },
    icon: <ShoppingCartOutlined />,
  },
  analysis: {
    get label() {
      return w.analysis;
    },
    icon: <FundOutlined />,
  },
  notifications: {
    get label() {
      return w.notifications;
    },
    icon: <BellOutlined />,
  },
  alerts: {
    get label() {
      return w.alerts;
    },
    icon: <AlertOutlined />,
  },
  settings: {
    get label() {
      return w.settings;
    },
    icon: <SettingOutlined />,
  },
  profile: {
    get label() {
      return w.profile;
    },
    icon: <UserOutlined />,
  },
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

/** The open side panel, or nothing when it is closed. */
export function SidePanel() {
  const active = useSidePanelStore((s) => s.active);
  if (active === 'none') return null;
  return (
    <aside className="side-panel" aria-label={BUTTONS[active].label}>
      <Suspense fallback={<div className="side-panel-body" aria-busy="true" />}>
        {active === 'trading' ? (
          <TradingPanel />
        ) : active === 'alerts' ? (
          <AlertsPanel onClose={closeSidePanel} closeText={w.close} />
        ) : (
          <PlaceholderPanels active={active} />
        )}
      </Suspense>
    </aside>
  );
}
