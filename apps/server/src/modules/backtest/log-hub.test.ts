import { describe, expect, it } from 'vitest';
import { InProcessBroker, LOG_LINE_CHANNEL } from '../gateway/broker.ts';
import { LogHub, type LogSocket } from './log-hub.ts';

/** A socket that records what it was sent and reads everything at once. */
function socket(): LogSocket & { lines: string[] } {
  const lines: string[] = [];
  return { lines, bufferedAmount: 0, send: (text) => lines.push(text), close: () => {} };
}

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
