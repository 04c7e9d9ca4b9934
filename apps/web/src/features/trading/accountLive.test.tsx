import { renderHook, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildTrader, buildUser } from '../../test/fixtures';
import { storeSession } from '../../test/render';
import { selectTrader } from '../auth/store';
import { listsChangedBy, onAccountEvent, useAccountLiveUpdates } from './accountLive';
import { stubTradingFetch, type Call } from './testSupport';

type Handler = (ctx: Record<string, unknown>) => void;

/** A stand-in for the centrifuge client and its subscriptions. */
class FakeSubscription {
  handlers = new Map<string, Handler[]>();
  subscribed = false;
  constructor(
    readonly channel: string,
    readonly options: { token?: string; getToken?: () => Promise<string> },
  ) {}
  on(event: string, handler: Handler) {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), handler]);
    return this;
  }
  emit(event: string, ctx: Record<string, unknown>) {
    for (const handler of this.handlers.get(event) ?? []) handler(ctx);
  }
  subscribe() {
    this.subscribed = true;
  }
  unsubscribe() {
    this.subscribed = false;
  }
  removeAllListeners() {
    this.handlers.clear();
  }
}

class FakeClient {
  subs = new Map<string, FakeSubscription>();
  getSubscription(channel: string) {
    return this.subs.get(channel) ?? null;
  }
  newSubscription(channel: string, options: FakeSubscription['options']) {
    const sub = new FakeSubscription(channel, options);
    this.subs.set(channel, sub);
    return sub;
  }
  removeSubscription(sub: FakeSubscription) {
    this.subs.delete(sub.channel);
  }
}

const live = vi.hoisted(() => ({
  client: null as unknown,
  identifyLive: vi.fn<(userId: string, getToken: () => Promise<string>) => void>(),
  forgetLive: vi.fn<(getToken: () => Promise<string>) => void>(),
}));
vi.mock('../../realtime/connection', () => ({
  isChildFrame: () => false,
  identifyLive: live.identifyLive,
  forgetLive: live.forgetLive,
  onLiveClient: (listener: (client: unknown) => void) => {
    listener(live.client);
    return () => {};
  },
}));

describe('account live channel', () => {
  let client: FakeClient;
  let calls: Call[];
  let minted = 0;
  beforeEach(() => {
    storeSession(buildUser());
    client = new FakeClient();
    live.client = client;
    live.identifyLive.mockClear();
    live.forgetLive.mockClear();
    minted = 0;
    calls = stubTradingFetch({
      '/api/live/token': (call: Call) => {
        minted += 1;
        const uuid = call.query.get('uuid');
        return {
          connectToken: `connect-${minted}`,
          channel: `account:${uuid}`,
          subscriptionToken: `sub-${uuid}-${minted}`,
          expiresAt: 2_000_000_000,
        };
      },
    });
  });
  afterEach(() => {
    live.client = null;
  });

  it('identifies the connection and joins account:{uuid}, tokens fetched on demand', async () => {
    const { unmount } = renderHook(() => useAccountLiveUpdates());
    await waitFor(() => expect(client.subs.get('account:acc-1')?.subscribed).toBe(true));
    // the centrifuge client asks for the tokens itself (getToken), when it needs them
    expect(live.identifyLive).toHaveBeenCalledTimes(1);
    const [userId, connectToken] = live.identifyLive.mock.calls[0]!;
    expect(userId).toBe('12');
    const sub = client.subs.get('account:acc-1')!;
    expect(sub.options.token).toBeUndefined();
    expect(minted).toBe(0);
    await expect(connectToken()).resolves.toBe('connect-1');
    await expect(sub.options.getToken?.()).resolves.toBe('sub-acc-1-2');
    const tokenCall = calls.find((c) => c.path === '/api/live/token');
    expect(tokenCall?.query.get('uuid')).toBe('acc-1');
    expect(tokenCall?.query.get('token')).toBe('tok-1');

    const events: unknown[] = [];
    const stop = onAccountEvent((event) => events.push(event));
    sub.emit('publication', {
      data: {
        type: 'pending_filled',
        uuid: 'acc-1',
        symbol: 'BTCUSDT',
        at: 1,
        pId: '3',
        orderId: '9',
      },
    });
    sub.emit('publication', { data: { type: 'nonsense' } });
    stop();
    expect(events).toEqual([expect.objectContaining({ type: 'pending_filled', pId: '3' })]);

    unmount();
    expect(client.subs.size).toBe(0);
    // the connection stops using this account's tokens
    expect(live.forgetLive).toHaveBeenCalledWith(connectToken);
  });

  it('moves to the other account’s channel and tokens on an account switch', async () => {
    renderHook(() => useAccountLiveUpdates());
    await waitFor(() => expect(client.subs.has('account:acc-1')).toBe(true));
    const first = live.identifyLive.mock.calls[0]![1];
    selectTrader(buildTrader({ uuid: 'acc-2', token: 'tok-2' }));
    await waitFor(() => expect(client.subs.get('account:acc-2')?.subscribed).toBe(true));
    expect(client.subs.has('account:acc-1')).toBe(false);
    expect(live.forgetLive).toHaveBeenCalledWith(first);
    expect(live.identifyLive).toHaveBeenCalledTimes(2);
    const [userId, second] = live.identifyLive.mock.calls[1]!;
    expect(userId).toBe('12');
    await second();
    expect(
      calls
        .filter((c) => c.path === '/api/live/token')
        .at(-1)
        ?.query.get('uuid'),
    ).toBe('acc-2');
  });

  it('knows which tables an event changes', () => {
    const base = { uuid: 'a', symbol: 'BTCUSDT', at: 1 };
    expect(
      listsChangedBy({
        ...base,
        type: 'position_closed',
        orderId: '1',
        tradeId: '2',
        volume: 1,
        full: true,
        closeReason: 1,
      }),
    ).toEqual(['positions', 'settles', 'logs']);
    expect(listsChangedBy({ ...base, type: 'pending_expired', pId: '1' })).toEqual([
      'pendings',
      'logs',
    ]);
    // a changed pending order: its table and its Modify row in the log
    expect(
      listsChangedBy({ ...base, type: 'pending_modified', pId: '1', pendPrice: 9, tp: 0, sl: 0 }),
    ).toEqual(['pendings', 'logs']);
    expect(listsChangedBy({ ...base, type: 'pending_filled', pId: '1', orderId: '2' })).toEqual([
      'positions',
      'pendings',
      'logs',
    ]);
  });
});
