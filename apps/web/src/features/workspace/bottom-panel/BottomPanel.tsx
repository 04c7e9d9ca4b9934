import {
  CompressOutlined,
  DownOutlined,
  ExpandOutlined,
  UpOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import { Button, Empty, Tabs, Tooltip } from 'antd';
import { messages } from '../../../i18n/firstScreen';
import { AccountBar } from '../../trading';
import { useActiveTarget } from '../trade/data';
import { TRADE_TABLES } from '../trade/TradeTables';
import {
  clickBottomTab,
  PANEL_TABS,
  setTradeSubTab,
  toggleBottomCollapse,
  toggleBottomMaximize,
  TRADE_SUB_TABS,
  useBottomPanelStore,
} from './store';
import type { PanelTab, TradeSubTab } from './store';
import { WideTradingRuntime } from './WideTradingRuntime';

const b = messages.bottomPanel;
// Read when drawn (getters), so in the language chosen.
const TAB_LABELS: Readonly<Record<PanelTab, string>> = {
  get trade() {
    return b.trade;
  },
  get wallet() {
    return b.wallet;
  },
};

function isSubTab(key: string): key is TradeSubTab {
  return (TRADE_SUB_TABS as readonly string[]).includes(key);
}

/**
 * The bottom panel under the charts: Trade and Wallet tabs, sized minimized, medium or
 * maximized (spec section 4, Bottom panel).
 */
export function BottomPanel() {
  const { size, tab, subTab } = useBottomPanelStore();
  // while the active chart replays, the replay's account (features/trading target.ts)
  const target = useActiveTarget();
  const open = size !== 'minimized';
  const maximizeLabel = size === 'maximized' ? b.restore : b.maximize;
  const collapseLabel = open ? b.minimize : b.expand;

  return (
    <section className={`bottom-panel bottom-panel-${size}`} aria-label={b.region}>
      <div className="bottom-panel-bar">
        <div role="tablist" aria-label={b.region} className="bottom-panel-tabs">
          {PANEL_TABS.map((key) => (
            <button
              key={key}
              type="button"
              role="tab"
              id={`bottom-tab-${key}`}
              aria-selected={open && tab === key}
              aria-controls={open && tab === key ? 'bottom-panel-content' : undefined}
              className="bottom-panel-tab"
              onClick={() => clickBottomTab(key)}
            >
              {TAB_LABELS[key]}
            </button>
          ))}
        </div>
        <AccountBar variant="bar" target={target} />
        <div className="bottom-panel-actions">
          <Tooltip title={collapseLabel}>
            <Button
              type="text"
              size="small"
              aria-label={collapseLabel}
              icon={open ? <DownOutlined /> : <UpOutlined />}
              onClick={toggleBottomCollapse}
            />
          </Tooltip>
          <Tooltip title={maximizeLabel}>
            <Button
              type="text"
              size="small"
              aria-label={maximizeLabel}
              icon={size === 'maximized' ? <CompressOutlined /> : <ExpandOutlined />}
              onClick={toggleBottomMaximize}
            />
          </Tooltip>
        </div>
      </div>
      {open && (
        <div
          className="bottom-panel-content"
          id="bottom-panel-content"
          role="tabpanel"
          aria-labelledby={`bottom-tab-${tab}`}
        >
          {tab === 'trade' ? (
            <Tabs
              className="trade-sub-tabs"
              size="small"
              activeKey={subTab}
              onChange={(key) => {
                if (isSubTab(key)) setTradeSubTab(key);
              }}
              items={TRADE_TABLES.map(({ key, label, Table }) => ({
                key,
                label,
                // Only the shown table is mounted; it loads on showing (spec section 4).
                children: subTab === key ? <Table active /> : null,
              }))}
            />
          ) : (
            <Empty
              className="wallet-placeholder"
              image={<WalletOutlined className="panel-empty-icon" aria-hidden="true" />}
              description={b.walletPlaceholder}
            />
          )}
        </div>
      )}
      <WideTradingRuntime />
    </section>
  );
}
