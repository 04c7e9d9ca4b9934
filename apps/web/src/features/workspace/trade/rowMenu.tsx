import { Dropdown } from 'antd';
import type { MenuProps } from 'antd';
import { useRef, useState, type MouseEvent } from 'react';
import { messages } from '../../../i18n/firstScreen';

type RowMenu = { key: string; x: number; y: number; items: MenuProps['items'] } | null;

export type RowAction = { key: string; label: string; onSelect: () => void };

/**
 * Double-clicking (or double-tapping) a row opens its action menu (spec section 2, narrow
 * layout). Two clicks on the same row within 400 ms count as a double-click on touch
 * screens that send no dblclick.
 */
export function useRowMenu<T>(rowKey: (row: T) => string, itemsOf: (row: T) => RowAction[]) {
  const [menu, setMenu] = useState<RowMenu>(null);
  const actions = useRef(new Map<string, () => void>());
  const lastClick = useRef<{ key: string; at: number } | null>(null);

  const open = (row: T, event: MouseEvent) => {
    const entries = itemsOf(row);
    actions.current = new Map(entries.map((item) => [item.key, item.onSelect]));
    setMenu({
      key: rowKey(row),
      x: event.clientX,
      y: event.clientY,
      items: entries.map(({ key, label }) => ({ key, label })),
    });
  };

  const onRow = (row: T) => ({
    onDoubleClick: (event: MouseEvent) => open(row, event),
    onClick: (event: MouseEvent) => {
      const key = rowKey(row);
      const now = event.timeStamp;
      const last = lastClick.current;
      lastClick.current = { key, at: now };
      if (last && last.key === key && now - last.at < 400) open(row, event);
    },
  });

  const element = (
    <Dropdown
      open={menu !== null}
      onOpenChange={(next) => {
        if (!next) setMenu(null);
      }}
      trigger={['click']}
      menu={{
        items: menu?.items ?? [],
        className: 'row-menu',
        'aria-label': messages.bottomPanel.rowActions,
        onClick: ({ key }) => {
          setMenu(null);
          actions.current.get(key)?.();
        },
      }}
    >
      <span
        className="row-menu-anchor"
        style={{ left: menu?.x ?? 0, top: menu?.y ?? 0 }}
        aria-hidden="true"
      />
    </Dropdown>
  );
  return { onRow, element };
}
