import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { Markdown } from './Markdown';

const ANSWER = [
  '## Moving averages',
  '',
  '- fast: **10** bars',
  '- slow: 30 bars',
  '',
  '| Metric | Value |',
  '| --- | --- |',
  '| Win rate | 55% |',
  '',
  'Call `main(data_array)`.',
  '',
  '```python',
  'def main(data_array):',
  '    return []',
  '```',
].join('\n');

describe('an answer as markdown', () => {
  it('renders headings, lists, tables, inline code and a highlighted code block', () => {
    renderWithProviders(<Markdown text={ANSWER} />);
    expect(screen.getByRole('heading', { name: 'Moving averages' })).toBeInTheDocument();
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
    expect(screen.getByRole('table')).toHaveTextContent('Win rate');
    expect(screen.getByText('main(data_array)').tagName).toBe('CODE');
    const block = screen.getByRole('figure', { name: 'python code' });
    expect(block.querySelector('.hljs-keyword')).toHaveTextContent('def');
    expect(within(block).getByRole('button', { name: 'Copy' })).toBeInTheDocument();
  });

  it('closes half-streamed markup while the text still arrives', () => {
    renderWithProviders(<Markdown text="This is **bold" streaming />);
    expect(screen.getByText('bold').tagName).toBe('STRONG');
  });

  it('shows an image as a link, loading nothing', () => {
    renderWithProviders(<Markdown text="![chart](https://example.com/x.png)" />);
    expect(document.querySelector('img')).toBeNull();
    expect(screen.getByRole('link', { name: 'chart' })).toHaveAttribute(
      'href',
      'https://example.com/x.png',
    );
  });
});

describe('Copy and Apply on a code block', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    Object.defineProperty(window, 'isSecureContext', { value: true, configurable: true });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("copies the plain code and says 'Copied' for 1.5 s", async () => {
    renderWithProviders(<Markdown text={ANSWER} />);
    // after the render: user-event's setup installs its own clipboard
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    });
    expect(writeText).toHaveBeenCalledWith('def main(data_array):\n    return []');
    expect(screen.getByRole('button', { name: 'Copied' })).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1_400));
    expect(screen.getByRole('button', { name: 'Copied' })).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(100));
    expect(screen.getByRole('button', { name: 'Copy' })).toBeInTheDocument();
  });

  it("applies the code and says 'Applied' for 1.5 s", async () => {
    const onApply = vi.fn(async () => {});
    renderWithProviders(<Markdown text={ANSWER} onApply={onApply} />);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    });
    expect(onApply).toHaveBeenCalledWith('def main(data_array):\n    return []');
    expect(screen.getByRole('button', { name: 'Applied' })).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1_500));
    expect(screen.getByRole('button', { name: 'Apply' })).toBeInTheDocument();
  });

  it('closes the Apply tooltip on Apply (the chat makes way for the diff)', async () => {
    renderWithProviders(<Markdown text={ANSWER} onApply={vi.fn(async () => {})} />);
    const apply = screen.getByRole('button', { name: 'Apply' });
    act(() => {
      fireEvent.mouseEnter(apply);
      vi.advanceTimersByTime(200);
    });
    const tip = 'Review this code as a change in the Python Code Editor';
    expect(screen.getByRole('tooltip')).toHaveTextContent(tip);
    await act(async () => {
      fireEvent.click(apply);
    });
    act(() => vi.advanceTimersByTime(500));
    const popup = screen.queryByRole('tooltip')?.closest('.ant-tooltip');
    expect(popup === null || popup === undefined || popup.matches('.ant-tooltip-hidden')).toBe(
      true,
    );
  });

  it('offers no Apply where there is no code editor', () => {
    renderWithProviders(<Markdown text={ANSWER} />);
    expect(screen.queryByRole('button', { name: 'Apply' })).toBeNull();
  });
});
