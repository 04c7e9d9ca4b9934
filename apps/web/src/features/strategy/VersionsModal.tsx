import type { StrategyVersion, StrategyVersionSummary } from '@ct/domain';
import { Alert, Button, Empty, Modal, Spin, Table, Typography, theme } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { strategy as messages } from '../../i18n/defaults/strategy';
import { versionTime } from './logic';
import { versionQuery } from './queries';

const m = messages.strategy;

/**
 * Restore previous version: the strategy's kept codes, newest first (time, size, first line);
 * the chosen one's code shows beside the list and Restore hands it to the editor.
 */
export function VersionsModal({
  strategy,
  versions,
  loading,
  onRestore,
  onClose,
}: {
  strategy: string;
  versions: StrategyVersionSummary[];
  loading: boolean;
  onRestore: (version: StrategyVersion) => void;
  onClose: () => void;
}) {
  const { token } = theme.useToken();
  const [picked, setPicked] = useState<number | null>(null);
  // The newest version is shown until another is picked.
  const chosen = picked ?? versions[0]?.id ?? null;
  // A version's code never changes: once fetched it stays in the cache; a failure says so.
  const detail = useQuery({ ...versionQuery(strategy, chosen ?? -1), enabled: chosen !== null });
  const version = chosen === null ? undefined : detail.data;
  const fetching = chosen !== null && detail.isLoading;

  return (
    <Modal
      open
      title={m.versionsTitle(strategy)}
      width="80vw"
      onCancel={onClose}
      footer={[
        <Button key="cancel" onClick={onClose}>
          {m.cancel}
        </Button>,
        <Button
          key="restore"
          type="primary"
          disabled={!version}
          onClick={() => version && onRestore(version)}
        >
          {m.restore}
        </Button>,
      ]}
    >
      <div
        data-testid="strategy-versions"
        style={{
          display: 'grid',
          gridTemplateColumns: 'minmax(0, 5fr) minmax(0, 6fr)',
          gap: 12,
          height: '55vh',
        }}
      >
        <Table<StrategyVersionSummary>
          size="small"
          rowKey="id"
          loading={loading}
          dataSource={versions}
          pagination={false}
          scroll={{ y: 'calc(55vh - 40px)' }}
          aria-label={m.restoreVersion}
          locale={{ emptyText: <Empty description={m.versionsEmpty} /> }}
          rowSelection={{
            type: 'radio',
            selectedRowKeys: chosen === null ? [] : [chosen],
            onChange: (keys) => setPicked(Number(keys[0])),
            columnWidth: 32,
          }}
          onRow={(row) => ({ onClick: () => setPicked(row.id), style: { cursor: 'pointer' } })}
          columns={[
            {
              title: m.versionSavedAt,
              dataIndex: 'created_at',
              width: 170,
              render: (t: number, v) => (
                <div style={{ lineHeight: 1.35 }}>
                  <div className="num">{versionTime(t)}</div>
                  <Typography.Text type="secondary" className="num" style={{ fontSize: 12 }}>
                    {m.versionChars(v.length, v.lines)}
                  </Typography.Text>
                </div>
              ),
            },
            {
              title: m.versionFirstLine,
              dataIndex: 'preview',
              ellipsis: true,
              render: (text: string) => (
                <Typography.Text code title={text}>
                  {text || ' '}
                </Typography.Text>
              ),
            },
          ]}
        />
        <div style={{ display: 'flex', flexDirection: 'column', gap: 8, minHeight: 0 }}>
          <Alert type="info" showIcon title={m.versionRestoreHint} />
          <div
            data-testid="strategy-version-preview"
            aria-label={m.versionPick}
            style={{
              flex: 1,
              minHeight: 0,
              overflow: 'auto',
              border: `1px solid ${token.colorBorderSecondary}`,
              borderRadius: token.borderRadius,
              background: token.colorFillQuaternary,
            }}
          >
            {version ? (
              <pre
                style={{
                  margin: 0,
                  padding: '8px 12px',
                  fontFamily: token.fontFamilyCode,
                  fontSize: 12,
                  lineHeight: 1.5,
                  color: token.colorText,
                  whiteSpace: 'pre',
                }}
              >
                {version.code}
              </pre>
            ) : (
              <div
                style={{
                  height: '100%',
                  display: 'flex',
                  alignItems: 'center',
                  justifyContent: 'center',
                }}
              >
                {fetching ? (
                  <Spin />
                ) : (
                  <Typography.Text type="secondary">{m.versionPick}</Typography.Text>
                )}
              </div>
            )}
          </div>
        </div>
      </div>
    </Modal>
  );
}
