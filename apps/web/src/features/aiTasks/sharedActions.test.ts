import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { frameActions } from '../../realtime/frameActions';
import { useChartGridStore } from '../../shared/chartGrid';
import { PROVIDERS } from '../assistant/testSupport';
import { resetAssistantSettings } from '../assistant/settingsStore';
import { currentChart, forgetWorkflows } from '../strategy/frameWorkflow';
import { endAllLogRelays } from '../strategy/logRelay';
import { registerAiTasks } from './register';
import { createAiTaskForChart } from './sharedActions';
import { json, stubServer } from './testSupport';

const SETTINGS = {
  apiKey: 'sk-…3456',
  provider: 'deepseek',
  model: 'deepseek-chat',
  baseURL: 'https://api.deepseek.com',
};
const routes = {
  'GET /api/ai/providers': () => json({ providers: PROVIDERS }),
  'GET /api/settings': () => json(SETTINGS),
  'POST /api/ai/strategy': () => json({ id: 41, status: 'PENDING' }),
  'GET /api/ai/strategies': () => json({ tasks: [], total: 0 }),
};

describe('chartActions/createAITask in the main window', () => {
  beforeEach(() => {
    resetAssistantSettings();
  });
  afterEach(() => {
    forgetWorkflows();
    endAllLogRelays();
    frameActions.reset();
    vi.unstubAllGlobals();
  });

  it('is registered with the AI tasks', () => {
    const unplug = registerAiTasks();
    expect(frameActions.has('chartActions/createAITask')).toBe(true);
    unplug();
    expect(frameActions.has('chartActions/createAITask')).toBe(false);
  });

  it("creates the task for the frame's chart with the model of the API Settings", async () => {
    const server = stubServer(routes);
    currentChart(
      { clientId: 'frame-a:chart-page', symbolId: 'ETHUSDT', defaultCode: '', period: '1h' },
      { source: null },
    );
    const result = await createAiTaskForChart({
      clientId: 'frame-a:chart-page',
      prompt: 'Buy the 20-bar breakout',
      taskType: 'strategy',
    });
    expect(result).toEqual({ success: true });
    expect(server.called('POST /api/ai/strategy')[0]?.body).toMatchObject({
      prompt: 'Buy the 20-bar breakout',
      provider: 'deepseek',
      model: 'deepseek-chat',
      base_url: 'https://api.deepseek.com',
      symbol_id: 'ETHUSDT',
      period: '1h',
      client_id: 'frame-a:chart-page',
      task_type: 'strategy',
    });
  });

  it('a chart of this window is found by its id', async () => {
    const server = stubServer(routes);
    const chart = useChartGridStore.getState().charts[0]!;
    const result = await createAiTaskForChart({
      clientId: chart.id,
      prompt: 'Mean reversion',
      taskType: 'strategy',
    });
    expect(result).toEqual({ success: true });
    expect(server.called('POST /api/ai/strategy')[0]?.body).toMatchObject({
      symbol_id: chart.symbol,
      period: chart.period,
    });
  });

  it("answers 'No active chart' for a client id that names no chart, and the server's refusal", async () => {
    const server = stubServer({
      ...routes,
      'POST /api/ai/strategy': () => json({ detail: 'Model not allowed' }, 422),
    });
    expect(
      await createAiTaskForChart({ clientId: 'nobody:chart', prompt: 'x', taskType: 'strategy' }),
    ).toEqual({ success: false, reason: 'No active chart' });
    expect(server.called('POST /api/ai/strategy')).toHaveLength(0);
    currentChart({ clientId: 'f:c', symbolId: 'ETHUSDT', defaultCode: '' }, { source: null });
    expect(
      await createAiTaskForChart({ clientId: 'f:c', prompt: 'x', taskType: 'strategy' }),
    ).toEqual({ success: false, reason: 'Creation failed: Model not allowed' });
  });
});
