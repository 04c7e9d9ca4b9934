import {
  CheckOutlined,
  DownOutlined,
  LogoutOutlined,
  SwapOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Button, Dropdown, Tag } from 'antd';
import type { MenuProps } from 'antd';
import { navigateTo } from '../../shared/navigation';
import { messages } from '../../i18n/messages';
import { logout, switchTrader } from '../auth/store';
import { useAccounts } from './useAccounts';

const TRADER_KEY = 'trader:';

/**
 * The account control: shows the current trading account and opens the user menu
 * (Profile, Trading Accounts submenu, Logout).
 */
export function AccountControl() {
  const { traders, currentTrader } = useAccounts();
  const name = currentTrader?.name ?? messages.accounts.noCurrent;

  const accountItems: NonNullable<MenuProps['items']> =
    traders.length === 0
      ? [{ key: 'no-accounts', label: messages.accounts.none, disabled: true }]
      : traders.map((trader) => {
          const isCurrent = trader.uuid === currentTrader?.uuid;
          return {
            key: TRADER_KEY + trader.uuid,
            icon: <CheckOutlined style={{ visibility: isCurrent ? 'visible' : 'hidden' }} />,
            label: (
              <span className="menu-account">
                <span>{trader.name}</span>
                {isCurrent && (
                  <Tag color="blue" className="menu-account-tag">
                    {messages.accounts.current}
                  </Tag>
                )}
              </span>
            ),
          };
        });

  const items: MenuProps['items'] = [
    { key: 'profile', icon: <UserOutlined />, label: messages.accounts.profile },
    {
      key: 'accounts',
      icon: <SwapOutlined />,
      label: messages.accounts.tradingAccounts,
      children: accountItems,
    },
    { type: 'divider' },
    { key: 'logout', icon: <LogoutOutlined />, label: messages.accounts.logout, danger: true },
  ];

  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'profile') navigateTo('/profile');
    else if (key === 'logout') void logout();
    else if (key.startsWith(TRADER_KEY)) {
      const uuid = key.slice(TRADER_KEY.length);
      if (uuid !== currentTrader?.uuid) switchTrader(uuid);
    }
  };

  return (
    <Dropdown
      trigger={['click']}
      placement="bottomRight"
      menu={{
        items,
        onClick,
        selectable: true,
        selectedKeys: currentTrader ? [TRADER_KEY + currentTrader.uuid] : [],
      }}
    >
      <Button
        type="text"
        className="account-control"
        aria-label={`${messages.accounts.menuLabel}: ${name}`}
      >
        <UserOutlined aria-hidden="true" />
        <span className="account-control-name">{name}</span>
        <DownOutlined aria-hidden="true" className="account-control-caret" />
      </Button>
    </Dropdown>
  );
}
