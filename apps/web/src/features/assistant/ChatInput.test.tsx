import { screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { ChatInput } from './ChatInput';

function Harness({
  onSend,
  streaming = false,
}: {
  onSend: (text: string) => void;
  streaming?: boolean;
}) {
  const [value, setValue] = useState('');
  return (
    <ChatInput
      value={value}
      onChange={setValue}
      onSend={() => onSend(value)}
      onStop={() => {}}
      streaming={streaming}
    />
  );
}

describe('the message input', () => {
  it('sends with Enter and adds a newline with Shift+Enter', async () => {
    const onSend = vi.fn();
    const { user } = renderWithProviders(<Harness onSend={onSend} />);
    const input = screen.getByRole('textbox', { name: 'Message' });
    await user.click(input);
    await user.keyboard('Line one{Shift>}{Enter}{/Shift}Line two');
    expect(onSend).not.toHaveBeenCalled();
    expect(input).toHaveValue('Line one\nLine two');
    await user.keyboard('{Enter}');
    expect(onSend).toHaveBeenCalledWith('Line one\nLine two');
    // Enter did not add a newline
    expect(input).toHaveValue('Line one\nLine two');
  });

  it('offers Send only for text, and Stop instead while an answer streams', async () => {
    const { user, rerender } = renderWithProviders(<Harness onSend={() => {}} />);
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'Hi');
    expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled();
    rerender(<Harness onSend={() => {}} streaming />);
    expect(screen.getByRole('button', { name: 'Stop' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull();
  });
});
