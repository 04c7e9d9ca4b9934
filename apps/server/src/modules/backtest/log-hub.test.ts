import { describe, expect, it } from 'vitest';
import { waitFor } from '../../test/wait-for.ts';
import { InProcessBroker, LOG_LINE_CHANNEL, SESSION_ENDED_CHANNEL } from '../gateway/broker.ts';
import { LogHub, SESSION_ENDED_CLOSE, type LogSocket } from './log-hub.ts';

/** A socket that records what it was sent and how it was closed, and reads at once. */
function socket(): LogSocket & { lines: string[]; closes: number[] } {
  const lines: string[] = [];
  const closes: number[] = [];
  return {
    lines,
    closes,
    bufferedAmount: 0,
    send: (text) => lines.push(text),
    close: (code) => closes.push(code),
  };
}

const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

describe('the log hub across nodes (a relay: the broker Redis carries between nodes)', () => {
  it("a line printed on one node reaches the user's sockets of that client id on every node", () => {
    const broker = new InProcessBroker(); // both nodes' brokers, as Redis joins them
    const nodeA = new LogHub(undefined, broker);
    const nodeB = new LogHub(undefined, broker);
    const onA = socket();
    const onB = socket();
    const otherTab = socket();
    const otherUser = socket();
    nodeA.add(7, 'tab-1', onA);
    nodeB.add(7, 'tab-1', onB);
    nodeB.add(7, 'tab-2', otherTab);
    nodeB.add(8, 'tab-1', otherUser);

    nodeA.publish(7, 'tab-1', 'printed on A');
    nodeB.publish(7, 'tab-1', 'printed on B');
    nodeA.publish(7, null, 'a run without a client id');

    expect(onA.lines).toEqual(['printed on A', 'printed on B']);
    expect(onB.lines).toEqual(['printed on A', 'printed on B']);
    expect(otherTab.lines).toEqual([]);
    expect(otherUser.lines).toEqual([]);
  });

  it('ignores relayed messages of another shape and stops hearing once closed', () => {
    const broker = new InProcessBroker();
    const hub = new LogHub(undefined, broker);
    const mine = socket();
    hub.add(7, 'tab-1', mine);
    broker.publish(LOG_LINE_CHANNEL, { u: '7', c: 'tab-1', l: 'a forged shape' });
    broker.publish(LOG_LINE_CHANNEL, null);
    broker.publish('public:XAUUSD', { u: 7, c: 'tab-1', l: 'a tick, not a line' });
    hub.close();
    broker.publish(LOG_LINE_CHANNEL, { u: 7, c: 'tab-1', l: 'after close' });
    expect(mine.lines).toEqual([]);
  });
});

describe('a log socket ends with its login session', () => {
  it('a logout on any node closes the sockets of that session with 3011, and only those', () => {
    const broker = new InProcessBroker();
    const nodeA = new LogHub(undefined, broker);
    const nodeB = new LogHub(undefined, broker);
    const ofSession5 = socket();
    const alsoOfSession5 = socket();
    const ofSession6 = socket();
    nodeA.add(7, 'tab-1', ofSession5, { sessionId: 5, expiresAt: inAnHour() });
    nodeB.add(7, 'tab-1', alsoOfSession5, { sessionId: 5, expiresAt: inAnHour() });
    nodeB.add(7, 'tab-1', ofSession6, { sessionId: 6, expiresAt: inAnHour() });

    broker.publish(SESSION_ENDED_CHANNEL, { sessionId: 5 });
    nodeA.publish(7, 'tab-1', 'printed by session 6');

    expect(ofSession5.closes).toEqual([SESSION_ENDED_CLOSE.code]);
    expect(alsoOfSession5.closes).toEqual([SESSION_ENDED_CLOSE.code]);
    expect(ofSession5.lines).toEqual([]);
    expect(alsoOfSession5.lines).toEqual([]);
    expect(ofSession6.lines).toEqual(['printed by session 6']);
    expect(ofSession6.closes).toEqual([]);
    expect(nodeA.count(7, 'tab-1') + nodeB.count(7, 'tab-1')).toBe(1);
    nodeA.close();
    nodeB.close();
  });

  it('closes a socket when its session expires', async () => {
    const expiresAt = inAnHour();
    const started = Date.now();
    // the clock stands 30 ms before the session's end
    const hub = new LogHub(undefined, null, () => expiresAt * 1000 - 30 + (Date.now() - started));
    const mine = socket();
    const remove = hub.add(7, 'tab-1', mine, { sessionId: 5, expiresAt });
    expect(remove).not.toBeNull();
    await waitFor(() => mine.closes.length === 1);
    expect(mine.closes).toEqual([SESSION_ENDED_CLOSE.code]);
    expect(hub.count(7, 'tab-1')).toBe(0);
    // a session already over: closed at once, not registered
    expect(hub.add(7, 'tab-1', socket(), { sessionId: 5, expiresAt: expiresAt - 7200 })).toBeNull();
    expect(hub.count(7, 'tab-1')).toBe(0);
  });
});
