import { DEFAULT_DRAWING_STYLE } from '@ct/domain';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { StyleBar } from './StyleBar';

describe('StyleBar', () => {
  it('shows the drawing’s style on its buttons', () => {
    render(
      <StyleBar
        kind="rectangle"
        style={{ color: '#f23645', width: 3, line: 'dashed', fill: 0.25 }}
        onChange={() => {}}
      />,
    );
    expect(screen.getByRole('button', { name: 'Colour: Red' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Line width: 3 px' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Line style: Dashed' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Fill: 25%' })).toBeInTheDocument();
  });

  it('offers a fill for rectangles only, and 12 % for a rectangle saved without one', () => {
    const { rerender } = render(
      <StyleBar kind="trend" style={DEFAULT_DRAWING_STYLE} onChange={() => {}} />,
    );
    expect(screen.queryByRole('button', { name: /^Fill/ })).toBeNull();
    rerender(<StyleBar kind="rectangle" style={DEFAULT_DRAWING_STYLE} onChange={() => {}} />);
    expect(screen.getByRole('button', { name: 'Fill: 12%' })).toBeInTheDocument();
  });

  it('picks a colour from the palette with the mouse', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup();
    render(<StyleBar kind="trend" style={DEFAULT_DRAWING_STYLE} onChange={onChange} />);
    await user.click(screen.getByRole('button', { name: 'Colour: Blue' }));
    const list = screen.getByRole('listbox', { name: 'Colour' });
    const options = within(list).getAllByRole('option');
    expect(options.map((o) => o.getAttribute('aria-label'))).toEqual([
      'Blue',
      'Red',
      'Green',
      'Orange',
      'Purple',
      'Cyan',
      'Pink',
      'Grey',
    ]);
    expect(within(list).getByRole('option', { name: 'Blue' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await user.click(within(list).getByRole('option', { name: 'Green' }));
    expect(onChange).toHaveBeenCalledWith({ color: '#089981' });
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('is used from the keyboard: open, arrows, Enter picks, Escape closes and keeps the chart’s keys out', async () => {
    const onChange = vi.fn();
    const documentKeys = vi.fn();
    document.addEventListener('keydown', documentKeys);
    const user = userEvent.setup();
    render(<StyleBar kind="trend" style={DEFAULT_DRAWING_STYLE} onChange={onChange} />);
    const width = screen.getByRole('button', { name: 'Line width: 2 px' });
    width.focus();
    await user.keyboard('{Enter}');
    // the list opens with the focus on the current width
    expect(screen.getByRole('option', { name: '2 px' })).toHaveFocus();
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(screen.getByRole('option', { name: '4 px' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(onChange).toHaveBeenLastCalledWith({ width: 4 });
    expect(width).toHaveFocus();

    const line = screen.getByRole('button', { name: 'Line style: Solid' });
    line.focus();
    await user.keyboard(' ');
    await user.keyboard('{ArrowUp}');
    expect(screen.getByRole('option', { name: 'Dotted' })).toHaveFocus();
    documentKeys.mockClear();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(line).toHaveFocus();
    // Escape closed the list only: the chart did not hear it (it would unselect the drawing)
    expect(documentKeys).not.toHaveBeenCalled();
    expect(onChange).toHaveBeenCalledTimes(1);
    document.removeEventListener('keydown', documentKeys);
  });

  it('shows a colour saved outside the palette as a choice of its own', async () => {
    const user = userEvent.setup();
    render(
      <StyleBar
        kind="trend"
        style={{ ...DEFAULT_DRAWING_STYLE, color: '#ABCDEF' }}
        onChange={() => {}}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Colour: #abcdef' }));
    expect(screen.getByRole('option', { name: '#abcdef' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
  });
});
