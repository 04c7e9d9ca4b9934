import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { MonitorPanelHost } from './MonitorPanelHost';
import { closeMonitorPanel, useMonitorPanel } from './panelStore';

describe('the performance monitoring panel', () => {
  afterEach(() => {
    act(() => closeMonitorPanel());
    vi.useRealTimers();
  });

  it('Alt+Shift+P opens and closes it; it is kept across reloads', async () => {
    renderWithProviders(<MonitorPanelHost />);
    expect(screen.queryByRole('region', { name: '性能监控面板' })).toBeNull();
    act(() => {
      window.dispatchEvent(
        new KeyboardEvent('keydown', { code: 'KeyP', altKey: true, shiftKey: true }),
      );
    });
    expect(await screen.findByRole('region', { name: '性能监控面板' })).toBeInTheDocument();
    expect(localStorage.getItem('perfMonitorPanel')).toBe('1');
    act(() => screen.getByRole('button', { name: '关闭监控面板' }).click());
    expect(screen.queryByRole('region', { name: '性能监控面板' })).toBeNull();
    expect(useMonitorPanel.getState().open).toBe(false);
  });

  it('reports every 5 s (the test page every 3 s)', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    act(() => useMonitorPanel.setState({ open: true }));
    renderWithProviders(<MonitorPanelHost />);
    await screen.findByRole('region', { name: '性能监控面板' });
    const status = screen.getByRole('status');
    expect(status).toHaveTextContent('等待第一次报告…');
    act(() => vi.advanceTimersByTime(4_900));
    expect(status).toHaveTextContent('等待第一次报告…');
    act(() => vi.advanceTimersByTime(200));
    expect(status).toHaveTextContent('监控中，每 5 秒报告一次');
  });
});
