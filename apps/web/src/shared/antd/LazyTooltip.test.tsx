import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Button } from 'antd';
import { describe, expect, it, vi } from 'vitest';
import { LazyTooltip } from './LazyTooltip';

// No chart draws here: the Tooltip's code loads only at the first pointer over the control.
vi.mock('../firstChart', () => ({ afterFirstChart: () => new Promise<void>(() => {}) }));

describe('LazyTooltip', () => {
  it('shows its tip at the first pointer over the control, its code loaded by it', async () => {
    const onClick = vi.fn();
    const user = userEvent.setup({ delay: null });
    render(
      <LazyTooltip title="Switch to dark theme">
        <Button aria-label="Theme" onClick={onClick} />
      </LazyTooltip>,
    );
    expect(screen.queryByRole('tooltip')).toBeNull();
    await user.hover(screen.getByRole('button', { name: 'Theme' }));
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Switch to dark theme');
    // the control works as before inside the Tooltip
    await user.click(screen.getByRole('button', { name: 'Theme' }));
    expect(onClick).toHaveBeenCalledTimes(1);
  });
});
