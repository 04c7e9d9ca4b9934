import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Button } from 'antd';
import { describe, expect, it, vi } from 'vitest';
import { LazyDropdown } from './LazyDropdown';

// The first chart is drawn at once: the menu's code loads before the trigger is used.
vi.mock('../firstChart', () => ({ afterFirstChart: () => Promise.resolve() }));

const items = [
  { key: 'one', label: 'One' },
  { key: 'two', label: 'Two' },
];

describe('LazyDropdown with its code loaded after the first chart', () => {
  it('a click opens the menu and the trigger keeps the focus, which Escape leaves there', async () => {
    const user = userEvent.setup({ delay: null });
    render(
      <LazyDropdown menu={{ items }}>
        <Button>Menu</Button>
      </LazyDropdown>,
    );
    // drawn inside antd's Dropdown once its code is here
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Menu' })).toHaveClass('ant-dropdown-trigger'),
    );
    await user.click(screen.getByRole('button', { name: 'Menu' }));
    expect(await screen.findByRole('menuitem', { name: 'One' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Menu' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('button', { name: 'Menu' })).toHaveFocus();
  });
});
