import type { ReplayView } from '@ct/domain';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { REPLAY_T0, buildReplayView } from '../../test/fixtures';
import { StrategyPanel } from './StrategyPanel';

const T0 = REPLAY_T0;
const H = 3600;

function viewAt(cursor: number): ReplayView {
  return buildReplayView({
    cursor,
    strategy_name: 'Up bars',
    last_bar: T0 + 10 * H,
    evaluations: [
      {
        bar_time: T0,
        wanted: [],
        orders: [],
        printed: ['first bar'],
        error: null,
      },
      {
        bar_time: T0 + H,
        wanted: [{ side: 'buy', lots: 1, open_time: T0 + H }],
        orders: [
          { action: 'open', side: 'buy', volume: 1, price: 101.5, status: 'filled', error: null },
          {
            action: 'open',
            side: 'sell',
            volume: 500,
            price: null,
            status: 'refused',
            error: 'Insufficient margin',
          },
        ],
        printed: ['bars 50', 'records 3', 'done'],
        error: null,
      },
    ],
  });
}

const time = (seconds: number) => `t${(seconds - T0) / H}`;

function setWidth(width: number) {
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
}

describe('the strategy beside the replayed chart', () => {
  afterEach(() => setWidth(1024));

  it('shows what the strategy wanted, sent and printed at the cursor bar', () => {
    setWidth(1440);
    render(<StrategyPanel view={viewAt(T0 + H)} tick={0.1} formatTime={time} />);
    const panel = screen.getByRole('region', { name: 'Strategy at the cursor' });
    expect(within(panel).getByRole('button', { name: 'Strategy details' })).toHaveTextContent(
      'Up bars at t1',
    );
    expect(
      within(within(panel).getByRole('list', { name: 'Wanted positions' })).getAllByRole(
        'listitem',
      ),
    ).toHaveLength(1);
    expect(within(panel).getByText('Buy 1 since t1')).toBeInTheDocument();
    const rows = within(within(panel).getByRole('table', { name: 'Orders sent' })).getAllByRole(
      'row',
    );
    expect(rows.map((row) => row.textContent)).toEqual([
      'OpenBuy1101.5Filled',
      'OpenSell500-Refused',
    ]);
    expect(rows[1]).toHaveAttribute('title', 'Insufficient margin');
    // every printed line, not only the last
    expect(within(panel).getByTestId('replay-printed').textContent).toBe(
      'bars 50\nrecords 3\ndone',
    );
  });

  it('after a step back shows the evaluation of the bar it landed on', () => {
    setWidth(1440);
    render(<StrategyPanel view={viewAt(T0)} tick={0.1} formatTime={time} />);
    expect(screen.getByTestId('replay-printed').textContent).toBe('first bar');
    expect(screen.getByText('No position wanted')).toBeInTheDocument();
    expect(screen.getByText('No order at this bar')).toBeInTheDocument();
  });

  it('says so when the strategy has not run at the cursor bar', () => {
    setWidth(1440);
    render(<StrategyPanel view={viewAt(T0 + 5 * H)} tick={0.1} formatTime={time} />);
    expect(screen.getByText('The strategy has not run at this bar')).toBeInTheDocument();
  });

  it('is folded on a phone until opened', async () => {
    setWidth(390);
    render(<StrategyPanel view={viewAt(T0 + H)} tick={0.1} formatTime={time} />);
    const toggle = screen.getByRole('button', { name: 'Strategy details' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByTestId('replay-printed')).toBeNull();
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByTestId('replay-printed').textContent).toBe('bars 50\nrecords 3\ndone');
  });
});
