import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Button } from 'antd';
import { describe, expect, it, vi } from 'vitest';
import { LazyDropdown } from './LazyDropdown';

// No chart draws here: the menu's code loads only at the trigger's first use.
vi.mock('../firstChart', () => ({ afterFirstChart: () => new Promise<void>(() => {}) }));

const items = [
  { key: 'one', label: 'One' },
  { key: 'two', label: 'Two' },
];

describe('LazyDropdown', () => {
  it('opens its menu on the first click, its code loaded by that click', async () => {
    const onClick = vi.fn();
    const user = userEvent.setup({ delay: null });
    render(
      <LazyDropdown menu={{ items, onClick: ({ key }) => onClick(key) }}>
        <Button>Menu</Button>
      </LazyDropdown>,
    );
    await user.click(screen.getByRole('button', { name: 'Menu' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Two' }));
    expect(onClick).toHaveBeenCalledWith('two');
    // drawn again with the Dropdown: the next click opens it as before
    await user.click(screen.getByRole('button', { name: 'Menu' }));
    expect(await screen.findByRole('menuitem', { name: 'One' })).toBeInTheDocument();
  });

  it('opens from the keyboard and the trigger keeps the focus', async () => {
    const user = userEvent.setup({ delay: null });
    render(
      <LazyDropdown menu={{ items }}>
        <Button>Menu</Button>
      </LazyDropdown>,
    );
    screen.getByRole('button', { name: 'Menu' }).focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('menuitem', { name: 'One' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Menu' })).toHaveFocus();
  });
});
