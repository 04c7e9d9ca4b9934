import { LineChartOutlined, LoginOutlined } from '@ant-design/icons';
import { Empty, Tabs, Typography } from 'antd';
import { messages } from '../../i18n/messages';
import { useAuthStore } from '../auth';
import { OrderTicket } from './ticket/OrderTicket';
import './trading.css';

const t = messages.trading;

function OrderTab({ symbol }: { symbol: string | null }) {
  const signedIn = useAuthStore((s) => s.isLoggedIn && s.currentTrader !== null);
  if (!signedIn) {
    return (
      <Empty
        image={<LoginOutlined className="panel-empty-icon" aria-hidden="true" />}
        description={t.loginFirst}
      />
    );
  }
  if (!symbol) {
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
  // A new instrument starts a fresh ticket.
  return <OrderTicket key={symbol} symbol={symbol} />;
}

/** The Order and DOM tabs of the trading panel (the DOM tab shows nothing, spec section 2). */
export function TradingTabs({ symbol }: { symbol: string | null }) {
  return (
    <Tabs
      className="trading-tabs"
      size="small"
      defaultActiveKey="order"
      items={[
        { key: 'order', label: t.order, children: <OrderTab symbol={symbol} /> },
        { key: 'dom', label: t.dom, children: null },
      ]}
    />
  );
}
