import { Button, Empty, Typography } from 'antd';
import { lazy, Suspense, type ReactNode } from 'react';
import { navigateTo } from '../../../shared/navigation';
import { messages } from '../../../i18n/firstScreen';
import { closeSidePanel } from './store';
import { loadNotificationsPanel } from '../../notifications/lazy';

// the notifications' list (features/notifications) loads with the panel
const NotificationsList = lazy(() =>
  loadNotificationsPanel().then((m) => ({ default: m.NotificationsList })),
);

const w = messages.workspace;

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

/** The side panels drawn in the common frame (analysis, notifications, settings, profile). */
export function PlaceholderPanels({
  active,
}: {
  active: 'analysis' | 'notifications' | 'settings' | 'profile';
}) {
  switch (active) {
    case 'analysis':
      return (
        <PlaceholderPanel title={w.analysis}>
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={w.analysisPlaceholder} />
        </PlaceholderPanel>
      );
    case 'notifications':
      return (
        <PlaceholderPanel title={w.notifications}>
          <Suspense fallback={<div className="notifications-loading" aria-busy="true" />}>
            <NotificationsList />
          </Suspense>
        </PlaceholderPanel>
      );
    case 'settings':
      return (
        <PlaceholderPanel title={w.settings}>
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={w.settingsPlaceholder} />
        </PlaceholderPanel>
      );
    case 'profile':
      return (
        <PlaceholderPanel title={w.profile}>
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={w.profilePlaceholder}>
            <Button onClick={() => navigateTo('/profile')}>{w.openProfile}</Button>
          </Empty>
        </PlaceholderPanel>
      );
  }
}
