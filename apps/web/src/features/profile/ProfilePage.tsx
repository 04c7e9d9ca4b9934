import { ArrowLeftOutlined, EditOutlined } from '@ant-design/icons';
import { formatEpochSeconds } from '@ct/domain';
import type { ProfileForm, Trader, User } from '@ct/domain';
import {
  Avatar,
  Button,
  Card,
  Descriptions,
  Empty,
  Space,
  Table,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import type { DescriptionsProps, TableColumnsType } from 'antd';
import { useState } from 'react';
import { navigateTo } from '../../shared/navigation';
import { ThemeButton } from '../../shared/ThemeButton';
import { profile as messages } from '../../i18n/defaults/profile';
import { AccountControl, LevelTag, useAccounts } from '../accounts';
import { ProfileEditForm } from './ProfileEditForm';

const t = messages.profile;

function orNotSet(value: string | null | undefined): string {
  return value && value.trim() !== '' ? value : t.notSet;
}

/** Read-only profile values in the spec's order and formats. */
export function basicInfoItems(user: User): DescriptionsProps['items'] {
  return [
    { key: 'nickname', label: t.nickname, children: orNotSet(user.nick_name) },
    { key: 'phone', label: t.phone, children: orNotSet(user.phone) },
    { key: 'email', label: t.email, children: orNotSet(user.email) },
    { key: 'country', label: t.country, children: orNotSet(user.country) },
    {
      key: 'audit-status',
      label: t.auditStatus,
      children:
        user.audit_status === 1 ? (
          <Tag color="green">{t.approved}</Tag>
        ) : (
          <Tag color="orange">{t.notApproved}</Tag>
        ),
    },
    {
      key: 'audit-remarks',
      label: t.auditRemarks,
      children: user.audit_remark && user.audit_remark.trim() !== '' ? user.audit_remark : t.none,
    },
    { key: 'audit-time', label: t.auditTime, children: formatEpochSeconds(user.audit_at) },
    { key: 'created', label: t.creationTime, children: formatEpochSeconds(user.created_at) },
    { key: 'updated', label: t.lastUpdate, children: formatEpochSeconds(user.updated_at) },
  ];
}

function TradingAccountsTable({
  traders,
  currentUuid,
}: {
  traders: Trader[];
  currentUuid: string | undefined;
}) {
  const columns: TableColumnsType<Trader> = [
    {
      key: 'name',
      title: t.accountName,
      dataIndex: 'name',
      render: (name: string, trader) => (
        <Space size={6}>
          <span>{name}</span>
          {trader.uuid === currentUuid && <Tag color="blue">{t.current}</Tag>}
        </Space>
      ),
    },
    {
      key: 'uuid',
      title: t.accountId,
      dataIndex: 'uuid',
      render: (uuid: string) => <span className="cell-id">{uuid}</span>,
    },
    {
      key: 'level',
      title: t.level,
      dataIndex: 'level',
      render: (level: number) => <LevelTag level={level} />,
    },
    {
      key: 'type',
      title: t.type,
      dataIndex: 'type',
      render: (type: number) => t.typeName(type),
    },
  ];
  return (
    <Table<Trader>
      rowKey="uuid"
      size="middle"
      columns={columns}
      dataSource={traders}
      pagination={false}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: <Empty description={t.noAccounts} /> }}
    />
  );
}

export function ProfilePage() {
  const { user, traders, currentTrader } = useAccounts();
  const [editing, setEditing] = useState(false);

  if (!user) {
    return (
      <main className="profile-empty">
        <Empty description={t.loginFirst}>
          <Button type="primary" onClick={() => navigateTo('/login')}>
            {t.login}
          </Button>
        </Empty>
      </main>
    );
  }

  const initial: ProfileForm = {
    nick_name: user.nick_name ?? '',
    phone: user.phone ?? '',
    email: user.email ?? '',
  };
  const nickname = user.nick_name && user.nick_name.trim() !== '' ? user.nick_name : null;

  return (
    <div className="profile-page">
      <header className="page-header">
        <Button icon={<ArrowLeftOutlined />} onClick={() => navigateTo('/')}>
          {t.returnToMain}
        </Button>
        <div className="page-header-actions">
          <AccountControl />
          <ThemeButton />
        </div>
      </header>
      <main className="profile-main">
        <Card className="profile-card">
          <div className="profile-identity">
            <Avatar size={64} className="profile-avatar">
              {(nickname?.[0] ?? 'U').toUpperCase()}
            </Avatar>
            <div>
              <Typography.Title level={3} className="profile-name">
                {nickname ?? t.unknownUser}
              </Typography.Title>
              <div className="profile-ids">
                <Typography.Text type="secondary">{t.userIdChannel}</Typography.Text>
                <Typography.Text strong data-testid="user-id-channel">
                  {user.id} | {user.channel}
                </Typography.Text>
              </div>
            </div>
          </div>
          <Tabs
            defaultActiveKey="basic"
            items={[
              {
                key: 'basic',
                label: t.basicInfo,
                children: editing ? (
                  <ProfileEditForm initial={initial} onDone={() => setEditing(false)} />
                ) : (
                  <>
                    <div className="profile-tab-actions">
                      <Button icon={<EditOutlined />} onClick={() => setEditing(true)}>
                        {t.edit}
                      </Button>
                    </div>
                    <Descriptions
                      bordered
                      size="middle"
                      column={{ xs: 1, sm: 1, md: 2, lg: 2, xl: 2, xxl: 2 }}
                      items={basicInfoItems(user)}
                    />
                  </>
                ),
              },
              {
                key: 'accounts',
                label: t.tradingAccounts,
                children: (
                  <TradingAccountsTable traders={traders} currentUuid={currentTrader?.uuid} />
                ),
              },
            ]}
          />
        </Card>
      </main>
    </div>
  );
}
