import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NetworkErrorDialog } from './NetworkErrorDialog';
import { AWAY_THRESHOLD_MS, useVisibilityNetworkCheck } from './useVisibilityNetworkCheck';
import type { VisibilityCheckOptions } from './useVisibilityNetworkCheck';

let visibility: DocumentVisibilityState = 'visible';
Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });

function setVisibility(state: DocumentVisibilityState) {
  visibility = state;
  document.dispatchEvent(new Event('visibilitychange'));
}

function Harness(options: VisibilityCheckOptions) {
  const { dialogOpen, refresh, cancel } = useVisibilityNetworkCheck(options);
  return <NetworkErrorDialog open={dialogOpen} onRefresh={refresh} onCancel={cancel} />;
}

function setup(checkResult: 'ok' | 'fail') {
  let now = 1_000_000;
  const clock = { now: () => now, advance: (ms: number) => (now += ms) };
  const check = vi.fn(() =>
    checkResult === 'ok' ? Promise.resolve() : Promise.reject(new Error('offline')),
  );
  const reload = vi.fn();
  render(<Harness now={clock.now} check={check} reload={reload} />);
  return { clock, check, reload };
}

async function awayFor(clock: { advance: (ms: number) => void }, ms: number) {
  await act(async () => {
    setVisibility('hidden');
    clock.advance(ms);
    setVisibility('visible');
  });
}

describe('visibility network check', () => {
  afterEach(() => {
    visibility = 'visible';
  });

  it('does nothing after 15 minutes or less away', async () => {
    const { clock, check, reload } = setup('ok');
    await awayFor(clock, AWAY_THRESHOLD_MS);
    expect(check).not.toHaveBeenCalled();
    expect(reload).not.toHaveBeenCalled();
  });

  it('reloads when the network answers after more than 15 minutes away', async () => {
    const { clock, check, reload } = setup('ok');
    await awayFor(clock, AWAY_THRESHOLD_MS + 1);
    expect(check).toHaveBeenCalledTimes(1);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(screen.queryByText('Network Connection Error')).not.toBeInTheDocument();
  });

  it('shows the Network Connection Error dialog when the check fails', async () => {
    const { clock, reload } = setup('fail');
    await awayFor(clock, 20 * 60 * 1000);
    expect(await screen.findByText('Network Connection Error')).toBeInTheDocument();
    expect(screen.getByText(/refresh the page to get the latest data/i)).toBeInTheDocument();
    expect(reload).not.toHaveBeenCalled();

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('Cancel closes the dialog', async () => {
    const { clock } = setup('fail');
    await awayFor(clock, 20 * 60 * 1000);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('dialog', { hidden: true })).not.toBeVisible();
  });
});
