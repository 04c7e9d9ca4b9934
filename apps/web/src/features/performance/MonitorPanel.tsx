import { CloseOutlined } from '@ant-design/icons';
import { Button, Card, Typography } from 'antd';
import { perfTest as messages } from '../../i18n/defaults/perfTest';
import { PANEL_MONITOR_INTERVAL_MS } from './logic';
import { closeMonitorPanel } from './panelStore';
import './performance.css';
import { StatsGrid } from './StatsGrid';
import { useMonitorReports } from './useMonitorReports';

const labels = messages.perfTest;

/**
 * The floating performance monitoring panel (spec section 9: it reports every 5 s; the test
 * page every 3 s): the live pipeline's and the main thread's figures over whatever page is
 * open. Opened from the test page or with Alt+Shift+P; measures only while open.
 */
export default function MonitorPanel() {
  const { report, heap } = useMonitorReports(PANEL_MONITOR_INTERVAL_MS, true);
  return (
    <Card
      size="small"
      className="perf-monitor-panel"
      role="region"
      aria-label={labels.panelTitle}
      title={labels.panelTitle}
      extra={
        <Button
          size="small"
          type="text"
          icon={<CloseOutlined />}
          aria-label={labels.closePanel}
          onClick={closeMonitorPanel}
        />
      }
    >
      <Typography.Paragraph type="secondary" className="perf-hint" role="status">
        {report ? labels.monitoringOn(PANEL_MONITOR_INTERVAL_MS / 1000) : labels.waitingReport}
      </Typography.Paragraph>
      <StatsGrid report={report} heap={heap} />
    </Card>
  );
}
