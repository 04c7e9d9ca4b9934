import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { messages } from '../i18n/messages';
import type * as ConnectionModule from '../realtime/connection';
import { defaultStartupSteps, Startup } from './startup';

const { connectLive } = vi.hoisted(() => ({ connectLive: vi.fn<() => Promise<void>>() }));
vi.mock('../realtime/connection', async (importOriginal) => ({
  ...(await importOriginal<typeof ConnectionModule>()),
  connectLive,
}));
import type { StartupStep } from './startup';

function step(key: string, run: () => Promise<void>, failurePrefix = 'Initialization failed: ') {
  return { key, label: key, failurePrefix, run } satisfies StartupStep;
}

describe('start-up screen', () => {
  it('has the spec steps in order', () => {
    expect(defaultStartupSteps.map((s) => s.label)).toEqual([
      'Registering shared modules',
      'Establishing WebSocket connection',
    ]);
    expect(defaultStartupSteps.map((s) => s.failurePrefix)).toEqual([
      'Initialization failed: ',
      'WebSocket connection failed: ',
    ]);
  });

  it('shows Initializing application... until every step is done, then the app', async () => {
    let finish: (() => void) | null = null;
    const steps = [
      step('one', () => Promise.resolve()),
      step('two', () => new Promise<void>((resolve) => (finish = resolve))),
    ];
    render(
      <Startup steps={steps}>
        <p>the app</p>
      </Startup>,
    );
    expect(screen.getByText(messages.startup.initializing)).toBeInTheDocument();
    expect(screen.queryByText('the app')).not.toBeInTheDocument();
    await vi.waitFor(() => expect(finish).not.toBeNull());
    finish!();
    expect(await screen.findByText('the app')).toBeInTheDocument();
  });

  it('shows the failure, its reason and a Reload button', async () => {
    const steps = [
      step('one', () => Promise.resolve()),
      step('two', () => Promise.reject(new Error('HTTP 502')), 'WebSocket connection failed: '),
    ];
    render(
      <Startup steps={steps}>
        <p>the app</p>
      </Startup>,
    );
    expect(await screen.findByText('Application Initialization Failed')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('WebSocket connection failed: HTTP 502');
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
    expect(screen.queryByText('the app')).not.toBeInTheDocument();
  });

  it('the live step waits for the live connection and fails with the WebSocket prefix', async () => {
    connectLive.mockRejectedValueOnce(new Error('transport closed'));
    render(
      <Startup>
        <p>the app</p>
      </Startup>,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'WebSocket connection failed: transport closed',
    );
    expect(connectLive).toHaveBeenCalledTimes(1);
  });
});
