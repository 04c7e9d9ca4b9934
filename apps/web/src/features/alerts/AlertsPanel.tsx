import { BellOutlined, DeleteOutlined, PauseOutlined, CaretRightOutlined } from '@ant-design/icons';
import { formatEpochSeconds, type Alert } from '@ct/domain';
import { Button, Empty, Spin, Typography } from 'antd';
import { alerts as messages } from '../../i18n/defaults/alerts';
import { useAlertsLive } from './live';
import { changeAlert, removeAlert, useAlertList, useAlertLog } from './queries';
import { alertText } from './text';
import './alerts.css';

const a = messages.alerts;

function AlertRow({ alert }: { alert: Alert }) {
  const text = alertText(alert);
  return (
    <li className="alerts-row" aria-label={text}>
      <BellOutlined aria-hidden="true" className="alerts-row-icon" />
      <span className="alerts-row-text">
        <span className="alerts-row-title" title={text}>
          {text}
        </span>
        <span className="alerts-row-meta">
          {a.kinds[alert.kind]} · {a.frequencies[alert.frequency]}
          {alert.fired_count > 0 && ` · ${a.firedTimes(alert.fired_count)}`}
        </span>
      </span>
      {alert.status === 'active' && (
        <Button
          size="small"
          type="text"
          icon={<PauseOutlined />}
          aria-label={`${a.pause} ${text}`}
          title={a.pause}
          onClick={() => void changeAlert(alert.id, { status: 'paused' })}
        />
      )}
      {alert.status !== 'active' && (
        <Button
          size="small"
          type="text"
          icon={<CaretRightOutlined />}
          aria-label={`${a.resume} ${text}`}
          title={a.resume}
          onClick={() => void changeAlert(alert.id, { status: 'active' })}
        />
      )}
      <Button
        size="small"
        type="text"
        danger
        icon={<DeleteOutlined />}
        aria-label={`${a.remove} ${text}`}
        title={a.remove}
        onClick={() => void removeAlert(alert.id)}
      />
    </li>
  );
}

function Section({ title, alerts }: { title: string; alerts: Alert[] }) {
  return (
    <section className="alerts-section" aria-label={title}>
      <Typography.Text strong className="alerts-section-title">
        {title} <span className="alerts-count">{alerts.length}</span>
      </Typography.Text>
      {alerts.length === 0 ? (
        <Typography.Text type="secondary" className="alerts-none">
          {a.empty}
        </Typography.Text>
      ) : (
        <ul className="alerts-list">
          {alerts.map((alert) => (
            <AlertRow key={alert.id} alert={alert} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** The Alerts side panel: active, paused and fired alerts, and the latest fires. */
export default function AlertsPanel({
  onClose,
  closeText,
}: {
  onClose: () => void;
  closeText: string;
}) {
  useAlertsLive();
  const list = useAlertList();
  const log = useAlertLog();
  const alerts = list.data ?? [];
  const fired = alerts.filter((x) => x.status === 'fired' || x.status === 'expired');
  return (
    <div className="side-panel-body">
      <header className="side-panel-header">
        <Typography.Title level={5} className="side-panel-title">
          {a.panel}
        </Typography.Title>
        <Button size="small" onClick={onClose}>
          {closeText}
        </Button>
      </header>
      <div className="side-panel-content alerts-panel">
        {list.isPending ? (
          <Spin />
        ) : alerts.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={a.noAlerts} />
        ) : (
          <>
            <Section title={a.active} alerts={alerts.filter((x) => x.status === 'active')} />
            <Section title={a.paused} alerts={alerts.filter((x) => x.status === 'paused')} />
            <Section title={a.fired} alerts={fired} />
          </>
        )}
        {(log.data?.items.length ?? 0) > 0 && (
          <section className="alerts-section" aria-label={a.recent}>
            <Typography.Text strong className="alerts-section-title">
              {a.recent}
            </Typography.Text>
            <ul className="alerts-list">
              {log.data?.items.slice(0, 20).map((entry) => (
                <li key={entry.id} className="alerts-row alerts-log-row">
                  <span className="alerts-row-text">
                    <span className="alerts-row-title">{entry.message}</span>
                    <span className="alerts-row-meta">
                      {a.firedAt(String(entry.price), formatEpochSeconds(entry.time))}
                    </span>
                  </span>
                </li>
              ))}
            </ul>
          </section>
        )}
      </div>
    </div>
  );
}
