import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render';
import { notify, TOAST_SECONDS } from './notify';

describe('toasts', () => {
  it('a success closes by itself after a few seconds', async () => {
    renderWithProviders(<div />);
    act(() => notify.success('Position closed successfully'));
    expect(await screen.findByText('Position closed successfully')).toBeInTheDocument();
    expect(TOAST_SECONDS.success).toBeLessThanOrEqual(4);
    await waitFor(
      () => expect(screen.queryByText('Position closed successfully')).not.toBeInTheDocument(),
      { timeout: (TOAST_SECONDS.success + 3) * 1000 },
    );
  });

  it('an error stays longer but closes with its close button', async () => {
    const { user } = renderWithProviders(<div />);
    act(() => notify.error('Failed to close position'));
    expect(await screen.findByText('Failed to close position')).toBeInTheDocument();
    expect(TOAST_SECONDS.error).toBeGreaterThan(TOAST_SECONDS.success);
    await user.click(screen.getByRole('button', { name: 'Close notification' }));
    await waitFor(() =>
      expect(screen.queryByText('Failed to close position')).not.toBeInTheDocument(),
    );
  });
});
