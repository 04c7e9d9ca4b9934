import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  connectLive,
  disconnectLive,
  getLiveClient,
  liveUrl,
  useConnectionStore,
} from './connection';

/** A WebSocket stand-in speaking just enough of the Centrifuge JSON protocol. */
function fakeSocket(behaviour: 'accept' | 'refuse') {
  const sent: string[] = [];
  class FakeWebSocket {
    onopen: (() => void) | null = null;
    onerror: ((e: unknown) => void) | null = null;
    onclose: ((e: { code: number; reason: string }) => void) | null = null;
    onmessage: ((e: { data: string }) => void) | null = null;
    constructor(readonly url: string) {
      setTimeout(() => {
        if (behaviour === 'refuse') {
          this.onerror?.(new Event('error'));
          this.onclose?.({ code: 1006, reason: '' });
        } else this.onopen?.();
      }, 1);
    }
    send(data: string) {
      sent.push(data);
      for (const line of data.split('\n')) {
        const command = JSON.parse(line) as { id?: number; connect?: unknown };
        if (command.connect && command.id) {
          setTimeout(() => {
            this.onmessage?.({
              data: JSON.stringify({
                id: command.id,
                connect: { client: 'c1', version: '0', ping: 25, pong: true },
              }),
            });
          }, 1);
        }
      }
    }
    close() {}
  }
  return { FakeWebSocket, sent };
}

describe('live connection', () => {
  afterEach(() => disconnectLive());

  it('connects anonymously with connect data { type: 1 } and reports connected', async () => {
    const { FakeWebSocket, sent } = fakeSocket('accept');
    const statuses: string[] = [];
    const stop = useConnectionStore.subscribe((s) => statuses.push(s.status));
    await connectLive({ url: 'ws://test/connection/websocket', websocket: FakeWebSocket });
    stop();
    expect(JSON.parse(sent[0]!.split('\n')[0]!)).toMatchObject({
      connect: { data: { type: 1 } },
      id: 1,
    });
    expect(JSON.parse(sent[0]!.split('\n')[0]!).connect.token).toBeUndefined();
    expect(statuses).toEqual(['connecting', 'connected']);
    expect(getLiveClient()).not.toBeNull();
  });

  it('fails with the reason when the gateway cannot be reached, and drops the client', async () => {
    const { FakeWebSocket } = fakeSocket('refuse');
    await expect(
      connectLive({
        url: 'ws://test/connection/websocket',
        websocket: FakeWebSocket,
        timeoutMs: 300,
      }),
    ).rejects.toThrow(/ws:\/\/test\/connection\/websocket, no connection within 0 s/);
    expect(getLiveClient()).toBeNull();
    expect(useConnectionStore.getState().status).toBe('disconnected');
  });

  it('derives the gateway URL from the page origin', () => {
    expect(liveUrl()).toBe(`ws://${window.location.host}/connection/websocket`);
    vi.stubEnv('VITE_API_BASE', 'https://api.example.com/');
    expect(liveUrl()).toBe('wss://api.example.com/connection/websocket');
    vi.unstubAllEnvs();
  });
});
