import { LineChartOutlined, LoginOutlined } from '@ant-design/icons';
import { Empty, Tabs, Typography } from 'antd';
import { messages } from '../../../i18n/messages';
import { useAuthStore } from '../../auth/store';
import { useActiveChart } from '../chart-grid/store';

const t = messages.trading;

function OrderTab() {
  const signedIn = useAuthStore((s) => s.isLoggedIn && s.currentTrader !== null);
  const activeChart = useActiveChart();
  if (!signedIn) {
    return (
      <Empty
        image={<LoginOutlined className="panel-empty-icon" aria-hidden="true" />}
        description={t.loginFirst}
      />
    );
  }
  if (!activeChart?.symbol) {
    return (
      <Empty
        image={<LineChartOutlined className="panel-empty-icon" aria-hidden="true" />}
        description={
          <>
            <Typography.Text strong>{t.pickSymbol}</Typography.Text>
            <br />
            <Typography.Text type="secondary">{t.pickSymbolHint}</Typography.Text>
          </>
        }
      />
    );
  }
  // The order ticket (trading issue) renders here.
  return null;
}

/** The trading panel: '{symbol} Paper Trading' with the Order and DOM tabs. */
export function TradingPanel() {
  const activeChart = useActiveChart();
  return (
    <div className="side-panel-body">
      <header className="side-panel-header">
        <Typography.Title level={5} className="side-panel-title">
          {t.title(activeChart?.symbol ?? null)}
        </Typography.Title>
      </header>
      <Tabs
        className="trading-tabs"
        size="small"
        defaultActiveKey="order"
        items={[
          { key: 'order', label: t.order, children: <OrderTab /> },
          // The DOM tab shows nothing (spec section 2).
          { key: 'dom', label: t.dom, children: null },
        ]}
      />
    </div>
  );
}
