import {
  CheckOutlined,
  DownOutlined,
  GlobalOutlined,
  LogoutOutlined,
  SwapOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Button } from 'antd';
import { lazy, Suspense } from 'react';
import type { MenuProps } from 'antd';
import { LazyDropdown } from '../../shared/antd/LazyDropdown';
import { chooseLanguage, languageName, useLanguageStore } from '../../shared/language';
import { navigateTo } from '../../shared/navigation';
import { messages } from '../../i18n/firstScreen';
import { isLanguage, LANGUAGES } from '../../i18n/texts';
import { logout, switchTrader } from '../auth';
import { useAccounts } from './useAccounts';

const TRADER_KEY = 'trader:';
const LANGUAGE_KEY = 'language:';

// Drawn in the menu only, whose code comes with it (shared/antd/LazyDropdown).
const Tag = lazy(() => import('../../shared/antd/dropdown').then((m) => ({ default: m.Tag })));

/**
 * The account control: shows the current trading account and opens the user menu
 * (Profile, Trading Accounts submenu, Language submenu, Logout).
 */
export function AccountControl() {
  const { traders, currentTrader } = useAccounts();
  const language = useLanguageStore((s) => s.language);
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
                  <Suspense fallback={null}>
                    <Tag color="blue" className="menu-account-tag">
                      {messages.accounts.current}
                    </Tag>
                  </Suspense>
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
    {
      key: 'language',
      icon: <GlobalOutlined />,
      label: messages.language.section,
      children: LANGUAGES.map((option) => ({
        key: LANGUAGE_KEY + option,
        icon: <CheckOutlined style={{ visibility: option === language ? 'visible' : 'hidden' }} />,
        label: languageName(option),
      })),
    },
    { type: 'divider' },
    { key: 'logout', icon: <LogoutOutlined />, label: messages.accounts.logout, danger: true },
  ];

  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'profile') navigateTo('/profile');
    else if (key === 'logout') void logout();
    else if (key.startsWith(LANGUAGE_KEY)) {
      const option = key.slice(LANGUAGE_KEY.length);
      if (isLanguage(option) && option !== language) chooseLanguage(option);
    } else if (key.startsWith(TRADER_KEY)) {
      const uuid = key.slice(TRADER_KEY.length);
      if (uuid !== currentTrader?.uuid) switchTrader(uuid);
    }
  };

  return (
    <LazyDropdown
      placement="bottomRight"
      // Closed is gone, its open Language submenu too: a language switch redraws the page
      // without remounting it, so nothing else would take that submenu down.
      destroyOnHidden
      menu={{
        items,
        onClick,
        selectable: true,
        selectedKeys: [
          ...(currentTrader ? [TRADER_KEY + currentTrader.uuid] : []),
          LANGUAGE_KEY + language,
        ],
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
    </LazyDropdown>
  );
}
