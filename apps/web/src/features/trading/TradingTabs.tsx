import { LineChartOutlined, LoginOutlined } from '@ant-design/icons';
import { Empty, Tabs, Tag, Typography } from 'antd';
import { trading as messages } from '../../i18n/defaults/trading';
import { useAuthStore } from '../auth';
import type { TradingTarget } from './target';
import { OrderTicket } from './ticket/OrderTicket';
import './trading.css';

const t = messages.trading;

function OrderTab({ symbol, target }: { symbol: string | null; target: TradingTarget | null }) {
  const signedIn = useAuthStore((s) => s.isLoggedIn && s.currentTrader !== null);
  if (target) {
    // A replay's account, named as such: a fresh ticket of its own, never the trader's.
    return (
      <>
        <div className="trading-target-note" role="note" aria-label={target.label}>
          <Tag color="cyan">{target.label}</Tag>
          <Typography.Text type="secondary">{t.targetNote}</Typography.Text>
        </div>
        <OrderTicket key={target.account} symbol={target.symbol} target={target} />
      </>
    );
  }
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

/**
 * The Order and DOM tabs of the trading panel (the DOM tab shows nothing, spec section 2).
 * With a `target` (the active chart's replay account) the ticket trades that account.
 */
export function TradingTabs({
  symbol,
  target = null,
}: {
  symbol: string | null;
  target?: TradingTarget | null;
}) {
  return (
    <Tabs
      className="trading-tabs"
      size="small"
      defaultActiveKey="order"
      items={[
        { key: 'order', label: t.order, children: <OrderTab symbol={symbol} target={target} /> },
        { key: 'dom', label: t.dom, children: null },
      ]}
    />
  );
}
