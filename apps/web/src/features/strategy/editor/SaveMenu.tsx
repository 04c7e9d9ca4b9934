import { DeleteOutlined, DownOutlined, RollbackOutlined, SaveOutlined } from '@ant-design/icons';
import { Button, Dropdown, Space } from 'antd';
import { strategy as messages } from '../../../i18n/defaults/strategy';
import { deleteCurrentStrategy, saveCurrentStrategy } from '../actions';
import { setPanel, useEditorStore } from '../store';
import { useSelectedVersions } from './selection';

const m = messages.strategy;

/**
 * The auto-save status button (a click saves the current strategy) and the save menu: Save
 * Current Strategy, Save as New Strategy, Restore previous version, Delete Strategy.
 */
export function SaveMenu() {
  const indicator = useEditorStore((s) => s.indicator);
  const { saved, versions } = useSelectedVersions();
  return (
    <Space.Compact>
      <Button icon={<SaveOutlined />} onClick={() => void saveCurrentStrategy()}>
        <span data-testid="save-indicator" data-state={indicator}>
          {m.indicator[indicator]}
        </span>
      </Button>
      <Dropdown
        trigger={['click']}
        menu={{
          items: [
            { key: 'current', label: m.saveCurrent, icon: <SaveOutlined /> },
            { key: 'new', label: m.saveAsNew, icon: <SaveOutlined /> },
            {
              key: 'versions',
              label: m.restoreVersion,
              icon: <RollbackOutlined />,
              disabled: !saved || versions.length === 0,
            },
            { type: 'divider' },
            { key: 'delete', label: m.deleteStrategy, icon: <DeleteOutlined />, danger: true },
          ],
          onClick: ({ key }) => {
            if (key === 'current') void saveCurrentStrategy();
            else if (key === 'new') setPanel('saveAsOpen', true);
            else if (key === 'versions') setPanel('versionsOpen', true);
            else void deleteCurrentStrategy();
          },
        }}
      >
        <Button aria-label={m.save} icon={<DownOutlined />} />
      </Dropdown>
    </Space.Compact>
  );
}
