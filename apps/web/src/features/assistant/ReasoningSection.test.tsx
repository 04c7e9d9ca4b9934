import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { ReasoningSection } from './ReasoningSection';

describe('the reasoning section', () => {
  it('shows Deep Thinking while the reasoning streams, collapsed', () => {
    renderWithProviders(
      <ReasoningSection reasoning={'First step\nSecond step'} thinkingMs={null} streaming />,
    );
    const toggle = screen.getByRole('button', { name: 'Deep Thinking...' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    // the latest line shows as a preview while collapsed
    expect(screen.getByText('Second step')).toBeInTheDocument();
  });

  it("says 'Deep Thinking Completed (Time: N seconds)' once the answer started, and expands", async () => {
    const { user } = renderWithProviders(
      <ReasoningSection reasoning="Compare the averages." thinkingMs={3_200} streaming />,
    );
    const toggle = screen.getByRole('button', {
      name: 'Deep Thinking Completed (Time: 3 seconds)',
    });
    expect(screen.queryByRole('region')).toBeNull();
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('region')).toHaveTextContent('Compare the averages.');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });
});
