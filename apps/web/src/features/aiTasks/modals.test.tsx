import { buildStrategyPrompt } from '@ct/domain';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { queryClient } from '../../shared/queryClient';
import { renderWithProviders } from '../../test/render';
import { PROVIDERS } from '../assistant/testSupport';
import { resetAssistantSettings } from '../assistant/settingsStore';
import { disposeAutoSave } from '../strategy/actions';
import { StrategyToolbar } from '../strategy/editor/StrategyToolbar';
import { strategiesQuery } from '../strategy/queries';
import { resetEditorStore, useEditorStore, useWorkbenchStore } from '../strategy/store';
import { AiTaskPanels } from './AiTaskPanels';
import { registerAiTasks } from './register';
import { resetAiTasksUi, useAiTasksUi } from './store';
import { buildConversation, buildTask, json, pendingTask, stubServer } from './testSupport';

const SETTINGS = {
  apiKey: 'sk-…3456',
  provider: 'qwen',
  model: 'qwen-plus',
  baseURL: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
};
const settingsRoutes = {
  'GET /api/ai/providers': () => json({ providers: PROVIDERS }),
  'GET /api/settings': () => json(SETTINGS),
};

beforeEach(() => {
  resetAiTasksUi();
  resetEditorStore();
  resetAssistantSettings();
  // the editor was opened for the first chart (BTCUSDT 1m in a fresh workspace)
  useWorkbenchStore.setState({
    request: { chartId: 'chart-1', symbol: 'BTCUSDT', period: '1m' },
    open: true,
  });
});
afterEach(() => {
  useWorkbenchStore.setState({ request: null, open: false });
  disposeAutoSave();
});

/**
 * The open modal titled `title` (by its title: under test antd gives every dialog the same
 * aria-labelledby id, so role names cannot tell nested dialogs apart).
 */
function dialog(title: string): Promise<HTMLElement> {
  return waitFor(() => {
    const found = [...document.querySelectorAll<HTMLElement>('.ant-modal')].find(
      (modal) => modal.querySelector('.ant-modal-title')?.textContent === title,
    );
    if (!found) throw new Error(`No dialog titled ${title}`);
    return found;
  });
}

/** A dialog opened over another: antd locks the focus to the newest dialog once it is set up,
 * and until then a focus inside it is pulled back to the one underneath. */
async function topDialog(title: string): Promise<HTMLElement> {
  const found = await dialog(title);
  await waitFor(() => expect(found.contains(document.activeElement)).toBe(true));
  return found;
}

describe('the editor toolbar', () => {
  it('AI Task List and Generate Strategy Prompt are live and open their modals', async () => {
    const unplug = registerAiTasks();
    const { user } = renderWithProviders(<StrategyToolbar />);
    // the task modals' code loads with the first click
    await user.click(screen.getByRole('button', { name: /AI Task List/ }));
    await waitFor(() => expect(useAiTasksUi.getState().listOpen).toBe(true));
    await user.click(screen.getByRole('button', { name: /Generate Strategy Prompt/ }));
    await waitFor(() => expect(useAiTasksUi.getState().promptOpen).toBe(true));
    unplug();
  });
});

describe('AI Strategy Task List', () => {
  it('shows ID, status (PENDING as Waiting), retry count, created time and the actions', async () => {
    const server = stubServer({
      'GET /api/ai/strategies': () =>
        json({
          tasks: [
            pendingTask({ id: 9 }),
            buildTask({ id: 8, status: 'PROCESSING', retry_count: 2 }),
            buildTask({ id: 7 }),
            buildTask({ id: 6, status: 'FAILED' }),
          ],
          total: 24,
        }),
    });
    useAiTasksUi.setState({ listOpen: true });
    renderWithProviders(<AiTaskPanels />);
    const list = await dialog('AI Strategy Task List');
    await within(list).findByText('Waiting');
    const table = within(list).getByRole('table');
    for (const title of ['ID', 'Status', 'Retry Count', 'Created Time', 'Actions']) {
      expect(within(table).getByRole('columnheader', { name: title })).toBeInTheDocument();
    }
    const rows = await within(list).findAllByRole('row');
    const body = rows.slice(1).map((row) => row.textContent ?? '');
    expect(body[0]).toMatch(/^9Waiting0/);
    expect(body[1]).toMatch(/^8PROCESSING2/);
    expect(body[2]).toMatch(/^7COMPLETED1/);
    expect(body[3]).toMatch(/^6FAILED/);
    expect(body[0]).toContain('Conversation History');
    expect(body[0]).toContain('Details');
    expect(body[0]).toContain('Delete');
    expect(within(list).getByRole('button', { name: /Create AI Strategy Task/ })).toBeVisible();
    expect(within(list).getByRole('button', { name: /Refresh/ })).toBeVisible();
    // active tasks: the list says it follows them
    expect(within(list).getByTestId('ai-polling')).toBeInTheDocument();
    // 24 tasks in pages of 10, the size changeable
    expect(within(list).getByText('24 tasks')).toBeInTheDocument();
    expect(within(list).getByTitle('3')).toBeInTheDocument();
    expect(list.querySelector('.ant-pagination-options')).not.toBeNull();
    expect(server.calls[0]?.url.searchParams.get('limit')).toBe('10');
  });

  it('Refresh asks again; the next page skips the first ten', async () => {
    const server = stubServer({
      'GET /api/ai/strategies': () => json({ tasks: [buildTask()], total: 15 }),
    });
    useAiTasksUi.setState({ listOpen: true });
    const { user } = renderWithProviders(<AiTaskPanels />);
    const list = await dialog('AI Strategy Task List');
    await within(list).findByText('COMPLETED');
    expect(within(list).queryByTestId('ai-polling')).toBeNull();
    await user.click(within(list).getByRole('button', { name: /Refresh/ }));
    await waitFor(() => expect(server.called('GET /api/ai/strategies')).toHaveLength(2));
    await user.click(within(list).getByTitle('2'));
    await waitFor(() => expect(server.called('GET /api/ai/strategies')).toHaveLength(3));
    expect(server.calls.at(-1)?.url.searchParams.get('skip')).toBe('10');
  });

  it("Delete asks first, then 'Task deleted successfully' and the row leaves", async () => {
    let tasks = [buildTask({ id: 7 }), buildTask({ id: 6 })];
    const server = stubServer({
      'GET /api/ai/strategies': () => json({ tasks, total: tasks.length }),
      'DELETE /api/ai/strategy/7': () => {
        tasks = tasks.filter((t) => t.id !== 7);
        return json({ id: 7, deleted: true, cancelled: false });
      },
    });
    useAiTasksUi.setState({ listOpen: true });
    const { user } = renderWithProviders(<AiTaskPanels />);
    const list = await dialog('AI Strategy Task List');
    await within(list).findAllByText('COMPLETED');
    const row = within(list).getAllByRole('row')[1]!;
    await user.click(within(row).getByRole('button', { name: /Delete/ }));
    await user.click(await screen.findByRole('button', { name: 'OK' }));
    expect(await screen.findByText('Task deleted successfully')).toBeInTheDocument();
    expect(server.called('DELETE /api/ai/strategy/7')).toHaveLength(1);
    await waitFor(() => expect(within(list).getAllByRole('row')).toHaveLength(2));
  });

  it("a failed load says 'Failed to get AI task list'", async () => {
    stubServer({ 'GET /api/ai/strategies': () => json({ detail: 'down' }, 500) });
    useAiTasksUi.setState({ listOpen: true });
    renderWithProviders(<AiTaskPanels />);
    expect(await screen.findByText('Failed to get AI task list')).toBeInTheDocument();
  });
});

describe('Create AI Strategy Task', () => {
  it('starts from the saved settings, counts up to 1000 characters and says what is missing', async () => {
    const server = stubServer(settingsRoutes);
    useAiTasksUi.setState({ createOpen: true });
    const { user, fill } = renderWithProviders(<AiTaskPanels />);
    const form = await dialog('Create AI Strategy Task');
    await waitFor(() =>
      expect(within(form).getByLabelText('API Base URL')).toHaveValue(SETTINGS.baseURL),
    );
    expect(within(form).getByText('0 / 1000')).toBeInTheDocument();
    expect(
      within(form).getByText('Leave blank to use the key saved in API Settings'),
    ).toBeVisible();
    expect(within(form).getByText('Backtested on the active chart: BTCUSDT 1m')).toBeVisible();

    await user.click(within(form).getByRole('button', { name: 'Create' }));
    expect(await within(form).findByText('Please enter strategy description')).toBeVisible();

    await fill(within(form).getByLabelText('Strategy description'), 'x'.repeat(1001));
    expect(
      await within(form).findByText('Strategy description must be at most 1000 characters'),
    ).toBeVisible();
    expect(within(form).getByText('1001 / 1000')).toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Create' }));
    expect(server.called('POST /api/ai/strategy')).toHaveLength(0);
  });

  it('the provider fills its endpoint and first model', async () => {
    stubServer(settingsRoutes);
    useAiTasksUi.setState({ createOpen: true });
    const { user } = renderWithProviders(<AiTaskPanels />);
    const form = await dialog('Create AI Strategy Task');
    await waitFor(() =>
      expect(within(form).getByLabelText('API Base URL')).toHaveValue(SETTINGS.baseURL),
    );
    await user.click(within(form).getByLabelText('AI provider'));
    await user.click(await screen.findByTitle('DeepSeek'));
    await waitFor(() =>
      expect(within(form).getByLabelText('API Base URL')).toHaveValue('https://api.deepseek.com'),
    );
    expect(within(form).getByText('deepseek-chat')).toBeInTheDocument();
  });

  it("posts the task for the active chart: 'AI strategy task created successfully'", async () => {
    const server = stubServer({
      ...settingsRoutes,
      'POST /api/ai/strategy': () => json({ id: 12, status: 'PENDING' }),
      'GET /api/ai/strategies': () => json({ tasks: [pendingTask({ id: 12 })], total: 1 }),
    });
    useAiTasksUi.setState({ listOpen: true });
    const { user, fill } = renderWithProviders(<AiTaskPanels />);
    const list = await dialog('AI Strategy Task List');
    await user.click(within(list).getByRole('button', { name: /Create AI Strategy Task/ }));
    const form = await topDialog('Create AI Strategy Task');
    await waitFor(() =>
      expect(within(form).getByLabelText('API Base URL')).toHaveValue(SETTINGS.baseURL),
    );
    await fill(within(form).getByLabelText('Strategy description'), '  RSI below 30 buys  ');
    await user.click(within(form).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('AI strategy task created successfully')).toBeInTheDocument();
    const [post] = server.called('POST /api/ai/strategy');
    expect(post?.body).toMatchObject({
      prompt: 'RSI below 30 buys',
      provider: 'qwen',
      model: 'qwen-plus',
      base_url: SETTINGS.baseURL,
      symbol_id: 'BTCUSDT',
      period: '1m',
      task_type: 'strategy',
    });
    // a blank key is left out: the saved one is used
    expect(post?.body).not.toHaveProperty('api_key');
    expect(useAiTasksUi.getState().createOpen).toBe(false);
    expect(await within(list).findByText('Waiting')).toBeInTheDocument();
  });

  it("a refusal says 'Creation failed: …'; no active chart stops it", async () => {
    const server = stubServer({
      ...settingsRoutes,
      'POST /api/ai/strategy': () =>
        json({ code: 42200, msg: 'bad', detail: 'symbol_id: Unknown symbol: ZZZ' }, 422),
    });
    useAiTasksUi.setState({ createOpen: true });
    const { user, fill } = renderWithProviders(<AiTaskPanels />);
    const form = await dialog('Create AI Strategy Task');
    await waitFor(() =>
      expect(within(form).getByLabelText('API Base URL')).toHaveValue(SETTINGS.baseURL),
    );
    await fill(within(form).getByLabelText('Strategy description'), 'anything');
    await user.click(within(form).getByRole('button', { name: 'Create' }));
    expect(
      await screen.findByText('Creation failed: symbol_id: Unknown symbol: ZZZ'),
    ).toBeInTheDocument();
    expect(useAiTasksUi.getState().createOpen).toBe(true);

    act(() => useWorkbenchStore.setState({ request: null }));
    expect(await within(form).findByText('No active chart')).toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Create' }));
    // the form's alert, and the toast
    await waitFor(() => expect(screen.getAllByText('No active chart')).toHaveLength(2));
    expect(server.called('POST /api/ai/strategy')).toHaveLength(1);
  });

  it("shows the bound of a user's open tasks when the server refuses one more", async () => {
    const detail =
      'You already have 10 AI tasks waiting or running: at most 10 per user. Wait for one to finish, or delete one.';
    stubServer({
      ...settingsRoutes,
      'POST /api/ai/strategy': () => json({ code: 42900, msg: detail, detail }, 429),
    });
    useAiTasksUi.setState({ createOpen: true });
    const { user, fill } = renderWithProviders(<AiTaskPanels />);
    const form = await dialog('Create AI Strategy Task');
    await waitFor(() =>
      expect(within(form).getByLabelText('API Base URL')).toHaveValue(SETTINGS.baseURL),
    );
    await fill(within(form).getByLabelText('Strategy description'), 'one more');
    await user.click(within(form).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText(`Creation failed: ${detail}`)).toBeInTheDocument();
    expect(useAiTasksUi.getState().createOpen).toBe(true);
  });
});

describe('Strategy Generation Prompt', () => {
  it('previews the prompt the server sends; Send Prompt is disabled while the logic is empty', async () => {
    const server = stubServer({
      ...settingsRoutes,
      'POST /api/ai/strategy': () => json({ id: 3, status: 'PENDING' }),
      'GET /api/ai/strategies': () => json({ tasks: [pendingTask({ id: 3 })], total: 1 }),
    });
    useAiTasksUi.setState({ promptOpen: true });
    const { user, fill } = renderWithProviders(<AiTaskPanels />);
    const modal = await dialog('Strategy Generation Prompt');
    const send = within(modal).getByRole('button', { name: 'Send Prompt' });
    expect(send).toBeDisabled();
    await fill(within(modal).getByLabelText('Strategy logic'), '   ');
    expect(send).toBeDisabled();
    await fill(within(modal).getByLabelText('Strategy logic'), 'Buy the 20-bar breakout');
    expect(within(modal).getByTestId('ai-prompt-preview').textContent).toBe(
      buildStrategyPrompt('Buy the 20-bar breakout'),
    );
    expect(within(modal).getByTestId('ai-prompt-preview').textContent).toContain(
      'main(data_array)',
    );
    expect(send).toBeEnabled();
    await user.click(send);
    expect(await screen.findByText('Prompt sent')).toBeInTheDocument();
    expect(server.called('POST /api/ai/strategy')[0]?.body).toMatchObject({
      prompt: 'Buy the 20-bar breakout',
      provider: 'qwen',
      model: 'qwen-plus',
      symbol_id: 'BTCUSDT',
      period: '1m',
    });
    // the list opens on the new task
    expect(await dialog('AI Strategy Task List')).toBeInTheDocument();
    expect(useAiTasksUi.getState().promptOpen).toBe(false);
  });
});

describe('AI Task Details', () => {
  it('shows the information, the prompt, the code toggle and in- and out-of-sample results', async () => {
    stubServer({ 'GET /api/ai/strategy/7': () => json(buildTask()) });
    useAiTasksUi.setState({ detailsId: 7 });
    const { user } = renderWithProviders(<AiTaskPanels />);
    const modal = await dialog('AI Task Details · 7');
    const details = await within(modal).findByTestId('ai-task-details');
    expect(within(details).getByText('Basic Information')).toBeVisible();
    expect(within(details).getByText('1 / 3')).toBeVisible();
    expect(within(details).getByText('BTCUSDT · 1h')).toBeVisible();
    expect(
      within(details).getByText('Buy when the fast average crosses above the slow one'),
    ).toBeVisible();
    const code = within(details).getByTestId('ai-task-code');
    expect(code.textContent).toContain('# … 10 more lines');
    await user.click(within(details).getByRole('button', { name: 'Show Full Code' }));
    expect(code.textContent).toContain('x29 = 29');
    expect(code.textContent).not.toContain('more lines');
    await user.click(within(details).getByRole('button', { name: 'Show Preview' }));
    expect(code.textContent).toContain('more lines');

    const table = within(details).getByRole('table', { name: 'Backtest Results' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual([
      'Metric',
      'Whole period',
      'In-sample (first 70 %)',
      'Out-of-sample (last 30 %)',
    ]);
    const trades = within(table).getByText('交易次数 (Trades)').closest('tr')!;
    expect(trades.textContent).toBe('交易次数 (Trades)862');
    expect(within(details).getByText('Look-ahead check passed')).toBeVisible();
    expect(within(modal).getByRole('button', { name: 'Create as Strategy' })).toBeInTheDocument();
  });

  it('a look-ahead strategy is flagged; a failed task shows its error and no Create as Strategy', async () => {
    stubServer({
      'GET /api/ai/strategy/7': () =>
        json(
          buildTask({
            backtest_result: {
              ...buildTask().backtest_result!,
              lookahead: { passed: false, cuts: [], detail: '2 of 5 entries changed' },
            },
          }),
        ),
      'GET /api/ai/strategy/8': () =>
        json(
          pendingTask({
            id: 8,
            status: 'FAILED',
            error_message: 'Gave up after 4 attempts. Last error: NameError',
          }),
        ),
    });
    useAiTasksUi.setState({ detailsId: 7 });
    renderWithProviders(<AiTaskPanels />);
    let modal = await dialog('AI Task Details · 7');
    expect(
      await within(modal).findByText('Look-ahead detected: the strategy uses future bars'),
    ).toBeVisible();
    expect(within(modal).getByText('2 of 5 entries changed')).toBeVisible();

    act(() => useAiTasksUi.setState({ detailsId: 8 }));
    modal = await dialog('AI Task Details · 8');
    expect(
      await within(modal).findByText('Gave up after 4 attempts. Last error: NameError'),
    ).toBeVisible();
    expect(within(modal).getByText('No backtest data available')).toBeVisible();
    expect(within(modal).queryByRole('button', { name: 'Create as Strategy' })).toBeNull();
  });

  it('a completed task without code offers no Create as Strategy', async () => {
    stubServer({
      'GET /api/ai/strategy/7': () => json(buildTask({ code: null, full_code: null })),
    });
    useAiTasksUi.setState({ detailsId: 7 });
    renderWithProviders(<AiTaskPanels />);
    const modal = await dialog('AI Task Details · 7');
    await within(modal).findByTestId('ai-task-details');
    expect(within(modal).queryByRole('button', { name: 'Create as Strategy' })).toBeNull();
  });

  it("Create as Strategy names it in 'Create Strategy'; the editor opens on the new strategy", async () => {
    queryClient.setQueryData(strategiesQuery.queryKey, [
      { name: 'Mine', code: '# mine', created_at: 1, updated_at: 2 },
    ]);
    // a saved strategy is selected; the editor was closed behind the notice's Details
    useEditorStore.setState({ selected: 'Mine', code: '# mine' });
    useWorkbenchStore.setState({ open: false });
    const server = stubServer({
      'GET /api/ai/strategy/7': () => json(buildTask()),
      'POST /api/ai/strategies/from-ai': (_url, body) =>
        json({
          name: (body as { name: string }).name,
          code: buildTask().code,
          created_at: 5,
          updated_at: 5,
          created: true,
        }),
    });
    useAiTasksUi.setState({ detailsId: 7 });
    const { user, fill } = renderWithProviders(<AiTaskPanels />);
    const modal = await dialog('AI Task Details · 7');
    await user.click(await within(modal).findByRole('button', { name: 'Create as Strategy' }));
    const nameDialog = await topDialog('Create Strategy');
    const input = within(nameDialog).getByLabelText('Strategy name');
    expect((input as HTMLInputElement).value).toMatch(
      /^AI_Strategy_\d{4}_\d\d_\d\d_\d\d_\d\d_\d\d$/,
    );
    await fill(input, '   ');
    await user.click(within(nameDialog).getByRole('button', { name: 'OK' }));
    expect(await within(nameDialog).findByText('Please enter a strategy name')).toBeVisible();
    expect(server.called('POST /api/ai/strategies/from-ai')).toHaveLength(0);

    await fill(input, 'AI crossover');
    await user.click(within(nameDialog).getByRole('button', { name: 'OK' }));
    expect(await screen.findByText('Strategy created successfully')).toBeInTheDocument();
    expect(server.called('POST /api/ai/strategies/from-ai')[0]?.body).toEqual({
      name: 'AI crossover',
      task_id: 7,
    });
    expect(queryClient.getQueryData(strategiesQuery.queryKey)?.map((s) => s.name)).toEqual([
      'AI crossover',
      'Mine',
    ]);
    expect(useAiTasksUi.getState()).toMatchObject({ strategyFromId: null, detailsId: null });
    // the editor opens with the new strategy selected; the saved one was not touched
    expect(useWorkbenchStore.getState().open).toBe(true);
    expect(useEditorStore.getState()).toMatchObject({
      selected: 'AI crossover',
      code: buildTask().code,
      proposal: null,
    });
    expect(server.called('POST /api/strategies/')).toHaveLength(0);
  });
});

describe('AI Task Conversation History', () => {
  it('a timeline of the steps with the total, and the retry selector when there were retries', async () => {
    const server = stubServer({
      'GET /api/ai/strategy/7': () => json(buildTask()),
      'GET /api/ai/strategy/7/conversations': (url) => {
        const retry = url.searchParams.get('retry_number');
        const all = buildConversation();
        if (retry === null) return json(all);
        const only = all.conversations.filter((c) => c.retry_number === Number(retry));
        return json({ ...all, conversations: only, total_messages: only.length });
      },
    });
    useAiTasksUi.setState({ conversationId: 7 });
    const { user } = renderWithProviders(<AiTaskPanels />);
    const modal = await dialog('AI Task Conversation History · 7');
    expect(await within(modal).findByText('Total messages: 8')).toBeVisible();
    const steps = [...modal.querySelectorAll('[data-step]')].map((n) =>
      n.getAttribute('data-step'),
    );
    expect(steps).toEqual([
      'initial_prompt',
      'generate_prompt',
      'ai_response',
      'error',
      'fix_prompt',
      'ai_response',
      'validation',
      'backtest',
    ]);
    expect(within(modal).getByText('Fix prompt')).toBeVisible();
    expect(within(modal).getAllByText('Retry 1').length).toBeGreaterThan(0);

    await user.click(within(modal).getByRole('combobox', { name: 'Attempt' }));
    await user.click(await screen.findByTitle('Retry 1'));
    expect(await within(modal).findByText('Total messages: 4')).toBeVisible();
    expect(server.calls.at(-1)?.url.searchParams.get('retry_number')).toBe('1');
  });

  it('no retry selector for a task that never retried', async () => {
    stubServer({
      'GET /api/ai/strategy/7': () => json(buildTask({ retry_count: 0 })),
      'GET /api/ai/strategy/7/conversations': () =>
        json(
          buildConversation({
            conversations: buildConversation().conversations.slice(0, 3),
            total_messages: 3,
            retry_numbers: [0],
          }),
        ),
    });
    useAiTasksUi.setState({ conversationId: 7 });
    renderWithProviders(<AiTaskPanels />);
    const modal = await dialog('AI Task Conversation History · 7');
    expect(await within(modal).findByText('Total messages: 3')).toBeVisible();
    expect(within(modal).queryByRole('combobox', { name: 'Attempt' })).toBeNull();
  });
});
