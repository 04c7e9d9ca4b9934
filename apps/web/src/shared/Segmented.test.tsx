import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Segmented } from './Segmented';

function Periods() {
  const [value, setValue] = useState('1m');
  return (
    <>
      <Segmented
        aria-label="Period"
        value={value}
        onChange={setValue}
        options={['1m', '5m', '1h'].map((p) => ({ value: p, label: p, title: `${p} bars` }))}
      />
      <output>{value}</output>
    </>
  );
}

describe('Segmented', () => {
  it('is a radio group: a click chooses a segment, the arrows move the choice', async () => {
    const user = userEvent.setup({ delay: null });
    render(<Periods />);
    const group = screen.getByRole('radiogroup', { name: 'Period' });
    expect(screen.getByRole('radio', { name: '1m' })).toBeChecked();
    await user.click(within(group).getByText('1h'));
    expect(screen.getByRole('radio', { name: '1h' })).toBeChecked();
    expect(screen.getByRole('status')).toHaveTextContent('1h');
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('radio', { name: '5m' })).toBeChecked();
    expect(screen.getByRole('status')).toHaveTextContent('5m');
    expect(group.querySelector('.ct-segmented-item-selected')).toHaveTextContent('5m');
    expect(within(group).getByText('5m').closest('label')).toHaveAttribute('title', '5m bars');
  });
});
