import './notifications.css';
import { NOTIFICATION_KINDS, formatEpochSeconds, type Notification } from '@ct/domain';
import { Alert, Button, Checkbox, Collapse, Empty, Skeleton, Switch, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { notifications as messages } from '../../i18n/defaults/notifications';
import { markAllRead, markRead, useNotifications } from './queries';
import {
  browserPermission,
  setBrowserFor,
  setBrowserNotifications,
  setSoundFor,
  useNotificationSettings,
} from './settings';
import { notificationText } from './text';

const m = messages.notifications;

const TROUBLE = new Set<Notification['kind']>([
  'pending_rejected',
  'stop_loss',
  'stop_out',
  'margin_warning',
  'ai_task_failed',
  'optimization_failed',
  'live_run_error',
  'live_run_stopped',
]);

function NotificationItem({ note, fresh }: { note: Notification; fresh: boolean }) {
  const { title, body } = notificationText(note);
  const tone = TROUBLE.has(note.kind) ? 'down' : 'up';
  const unread = !note.read || fresh;
  return (
    <li className={`notification-item${unread ? ' notification-unread' : ''}`}>
      <span className={`notification-dot notification-dot-${tone}`} aria-hidden="true" />
      <div className="notification-main">
        <div className="notification-head">
          <span className="notification-title">{title}</span>
          {unread && <span className="notification-unread-tag">{m.unreadMark}</span>}
          <time className="notification-time" dateTime={new Date(note.time * 1000).toISOString()}>
            {formatEpochSeconds(note.time)}
          </time>
        </div>
        {body && <div className="notification-body">{body}</div>}
      </div>
    </li>
  );
}

function NotificationSettingsSection() {
  const settings = useNotificationSettings();
  const [permission, setPermission] = useState(browserPermission);
  const [asking, setAsking] = useState(false);
  const toggleBrowser = async (on: boolean) => {
    setAsking(true);
    try {
      await setBrowserNotifications(on);
    } finally {
      setAsking(false);
      setPermission(browserPermission());
    }
  };
  return (
    <div className="notification-settings">
      <label className="notification-setting-row">
        <span>
          <span className="notification-setting-label">{m.browser}</span>
          <Typography.Text type="secondary" className="notification-setting-hint">
            {m.browserHint}
          </Typography.Text>
        </span>
        <Switch
          aria-label={m.browser}
          checked={settings.browser}
          loading={asking}
          disabled={permission === 'unsupported'}
          onChange={(on) => void toggleBrowser(on)}
        />
      </label>
      {permission === 'denied' && <Alert type="warning" showIcon title={m.browserDenied} />}
      {permission === 'unsupported' && <Alert type="info" showIcon title={m.browserUnsupported} />}
      <table className="notification-kinds">
        <thead>
          <tr>
            <th scope="col">{m.kind}</th>
            <th scope="col">{m.popUp}</th>
            <th scope="col">{m.sound}</th>
          </tr>
        </thead>
        <tbody>
          {NOTIFICATION_KINDS.map((kind) => (
            <tr key={kind}>
              <th scope="row">{m.kinds[kind]}</th>
              <td>
                <Checkbox
                  aria-label={m.popUpFor(m.kinds[kind])}
                  disabled={!settings.browser}
                  checked={settings.browserKinds.includes(kind)}
                  onChange={(e) => setBrowserFor(kind, e.target.checked)}
                />
              </td>
              <td>
                <Checkbox
                  aria-label={m.soundFor(m.kinds[kind])}
                  checked={settings.soundKinds.includes(kind)}
                  onChange={(e) => setSoundFor(kind, e.target.checked)}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The Notifications panel's content: the newest notifications (unread ones marked), marked
 * read once shown here, and the settings of how they reach the user.
 */
export function NotificationsList() {
  const { data, isPending, isError, refetch } = useNotifications();
  const unreadIds = (data?.items ?? []).filter((n) => !n.read).map((n) => n.id);
  const unreadKey = unreadIds.join(',');
  // Ones that were unread when shown keep their mark while the panel stays open, so the
  // user sees what is new; the server counts them read at once.
  const [fresh, setFresh] = useState<ReadonlySet<string>>(() => new Set());
  const unseen = unreadIds.filter((id) => !fresh.has(id));
  if (unseen.length > 0) setFresh(new Set([...fresh, ...unseen]));
  // what the panel shows has been seen: marked read (again when new ones arrive while open)
  useEffect(() => {
    if (unreadKey) void markRead(unreadKey.split(',')).catch(() => undefined);
  }, [unreadKey]);

  let list;
  if (isPending) list = <Skeleton active paragraph={{ rows: 4 }} />;
  else if (isError)
    list = (
      <Alert
        type="error"
        showIcon
        title={m.loadFailed}
        action={
          <Button size="small" onClick={() => void refetch()}>
            {m.retry}
          </Button>
        }
      />
    );
  else if (data.items.length === 0)
    list = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={m.empty} />;
  else
    list = (
      <ul className="notification-list" aria-label={m.list}>
        {data.items.map((note) => (
          <NotificationItem key={note.id} note={note} fresh={fresh.has(note.id)} />
        ))}
      </ul>
    );

  return (
    <div className="notifications-panel">
      {data && data.items.length > 0 && (
        <div className="notifications-toolbar">
          <Typography.Text type="secondary">{m.unreadCount(data.unread)}</Typography.Text>
          <Button
            size="small"
            type="link"
            disabled={data.unread === 0}
            onClick={() => void markAllRead().catch(() => undefined)}
          >
            {m.markAllRead}
          </Button>
        </div>
      )}
      {list}
      <Collapse
        size="small"
        className="notification-settings-collapse"
        items={[{ key: 'settings', label: m.settings, children: <NotificationSettingsSection /> }]}
      />
    </div>
  );
}
