import { CheckOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Button, Tag, Typography } from 'antd';
import { navigateTo } from '../../shared/navigation';
import { messages as firstScreen } from '../../i18n/firstScreen';
import { profile } from '../../i18n/defaults/profile';
import { shell } from '../../i18n/defaults/shell';
import { logout, switchTrader } from '../auth';
import { LevelTag } from './LevelTag';
import { useAccounts } from './useAccounts';

/** This module's texts (their sections, shared with messages.ts). */
const messages = { ...firstScreen, ...profile, ...shell };

/** The narrow layout's account section: who is signed in, the accounts, Profile, Logout. */
export function AccountSection() {
  const { user, traders, currentTrader } = useAccounts();
  const nickname = user?.nick_name || messages.profile.unknownUser;

  return (
    <section className="my-section" aria-labelledby="my-account-heading">
      <Typography.Title level={5} id="my-account-heading" className="my-section-title">
        {messages.narrow.account}
      </Typography.Title>
      <div className="my-user">
        <Avatar size={44}>{(user?.nick_name?.[0] ?? 'U').toUpperCase()}</Avatar>
        <div className="my-user-text">
          <Typography.Text strong>{nickname}</Typography.Text>
          <Typography.Text type="secondary" className="my-user-email">
            {user?.email ?? ''}
          </Typography.Text>
        </div>
      </div>

      <Typography.Text type="secondary" className="my-label">
        {messages.narrow.currentAccount}
      </Typography.Text>
      <div className="my-current">
        {currentTrader ? (
          <>
            <Typography.Text strong>{currentTrader.name}</Typography.Text>
            <LevelTag level={currentTrader.level} />
            <Typography.Text type="secondary">
              {messages.profile.typeName(currentTrader.type)}
            </Typography.Text>
          </>
        ) : (
          <Typography.Text type="secondary">{messages.accounts.noCurrent}</Typography.Text>
        )}
      </div>

      <Typography.Text type="secondary" className="my-label" id="my-switch-label">
        {messages.narrow.switchAccount}
      </Typography.Text>
      {traders.length === 0 ? (
        <Typography.Text type="secondary">{messages.accounts.none}</Typography.Text>
      ) : (
        <ul className="my-accounts" aria-labelledby="my-switch-label">
          {traders.map((trader) => {
            const isCurrent = trader.uuid === currentTrader?.uuid;
            return (
              <li key={trader.uuid}>
                <button
                  type="button"
                  className="my-account-button"
                  aria-current={isCurrent ? 'true' : undefined}
                  onClick={() => {
                    if (!isCurrent) switchTrader(trader.uuid);
                  }}
                >
                  <span className="my-account-name">{trader.name}</span>
                  <span className="my-account-id">{trader.uuid}</span>
                  {isCurrent ? (
                    <Tag color="blue" icon={<CheckOutlined />}>
                      {messages.accounts.current}
                    </Tag>
                  ) : (
                    <LevelTag level={trader.level} />
                  )}
                </button>
              </li>
            );
          })}
        </ul>
      )}

      <div className="my-actions">
        <Button size="large" icon={<UserOutlined />} onClick={() => navigateTo('/profile')} block>
          {messages.accounts.profile}
        </Button>
        <Button size="large" danger icon={<LogoutOutlined />} onClick={() => void logout()} block>
          {messages.accounts.logout}
        </Button>
      </div>
    </section>
  );
}
