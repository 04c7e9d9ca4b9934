import type { Notification, NotificationList } from '@ct/domain';
import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { buildUser, jsonResponse } from '../../test/fixtures';
import { renderWithProviders, storeSession } from '../../test/render';
import { SideButtons, SidePanel } from '../workspace/side-panel/SidePanel';
import { useSidePanelStore } from '../workspace/side-panel/store';
import { queryClient } from '../../shared/queryClient';
import { handleNotificationPublication } from './live';
import { notificationsKey } from './queries';
import { NotificationsRuntime } from './NotificationsRuntime';
import { useNotificationSettings } from './settings';

const note = (id: number, over: Partial<Notification> = {}): Notification => ({
  id: String(id),
  kind: 'pending_filled',
  params: { symbol: 'BTCUSDT', side: 'buy', volume: 0.5, price: 45000, account: 'Main Account' },
  ref: `pending:${id}:filled`,
  time: 1_767_600_000 + id,
  read: false,
  ...over,
});

/** A server of the user's notifications: the list and the read call, over stubbed fetch. */
function stubNotifications(items: Notification[]) {
  const state = { items: [...items] };
  const reads: unknown[] = [];
  const list = (): NotificationList => ({
    items: state.items,
    total: state.items.length,
    unread: state.items.filter((n) => !n.read).length,
  });
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const key = `${init?.method ?? 'GET'} ${url.pathname}`;
      if (key === 'GET /api/notifications') return Promise.resolve(jsonResponse(list()));
      if (key === 'POST /api/notifications/read') {
        const body = JSON.parse(String(init?.body)) as { ids?: string[]; all?: true };
        reads.push(body);
        let updated = 0;
        state.items = state.items.map((n) => {
          if (n.read || !(body.all || body.ids?.includes(n.id))) return n;
          updated += 1;
          return { ...n, read: true };
        });
        return Promise.resolve(jsonResponse({ updated, unread: list().unread }));
      }
      return new Promise<Response>(() => {});
    }),
  );
  return { state, reads };
}

function renderWorkspaceSide() {
  return renderWithProviders(
    <>
      <SidePanel />
      <SideButtons />
      <NotificationsRuntime />
    </>,
  );
}

const notificationsButton = () => screen.getByRole('button', { name: /^Notifications/ });

describe('notifications panel', () => {
  beforeEach(() => {
    storeSession(buildUser({ id: 7 }));
    useSidePanelStore.setState({ active: 'none' });
    useNotificationSettings.setState({ browser: false, soundKinds: [] });
  });

  it('shows the unread count on its button, and stays unread until opened', async () => {
    const server = stubNotifications([note(2), note(1, { read: true })]);
    const { user } = renderWorkspaceSide();
    await waitFor(() => expect(notificationsButton()).toHaveAccessibleName(/1 unread/));
    expect(server.reads).toEqual([]);

    await user.click(notificationsButton());
    const list = await screen.findByRole('list', { name: 'Notifications list' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Pending order filled');
    expect(items[0]).toHaveTextContent('Buy 0.5 BTCUSDT filled at 45000 · Main Account');
    // the one that was new keeps its mark while the panel is open
    expect(items[0]).toHaveTextContent('Unread');
    expect(items[1]).not.toHaveTextContent('Unread');
    // opening marked it read: the count on the button clears
    await waitFor(() => expect(server.reads).toEqual([{ ids: ['2'] }]));
    await waitFor(() => expect(notificationsButton()).not.toHaveAccessibleName(/unread/));
  });

  it('a notification arriving live raises the count and goes on top', async () => {
    stubNotifications([]);
    renderWorkspaceSide();
    await waitFor(() => expect(notificationsButton()).toBeInTheDocument());
    // the first list is in the cache
    await waitFor(() => expect(queryClient.getQueryData(notificationsKey('7'))).toBeDefined());
    act(() =>
      handleNotificationPublication('7', {
        type: 'notification',
        notification: note(3, { kind: 'take_profit', params: { symbol: 'XAUUSD', price: 2010 } }),
      }),
    );
    await waitFor(() => expect(notificationsButton()).toHaveAccessibleName(/1 unread/));
    // a malformed publication changes nothing
    act(() => handleNotificationPublication('7', { type: 'notification', notification: {} }));
    act(() =>
      handleNotificationPublication('7', { type: 'notifications_read', ids: ['3'], unread: 0 }),
    );
    await waitFor(() => expect(notificationsButton()).not.toHaveAccessibleName(/unread/));
  });

  it('shows the empty state, and asks for browser permission only when turned on', async () => {
    stubNotifications([]);
    const requestPermission = vi.fn(() => Promise.resolve('granted' as NotificationPermission));
    const NotificationStub = Object.assign(vi.fn(), { permission: 'default', requestPermission });
    vi.stubGlobal('Notification', NotificationStub);
    useSidePanelStore.setState({ active: 'notifications' });
    const { user } = renderWorkspaceSide();
    expect(await screen.findByText('No new notifications')).toBeInTheDocument();
    expect(requestPermission).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Notification settings' }));
    const toggle = await screen.findByRole('switch', { name: 'Browser notifications' });
    await user.click(toggle);
    expect(requestPermission).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(toggle).toBeChecked());
    expect(useNotificationSettings.getState().browser).toBe(true);

    const sound = screen.getByRole('checkbox', { name: 'Sound for Take profit hit' });
    expect(sound).not.toBeChecked();
    await user.click(sound);
    expect(useNotificationSettings.getState().soundKinds).toContain('take_profit');
  });
});
