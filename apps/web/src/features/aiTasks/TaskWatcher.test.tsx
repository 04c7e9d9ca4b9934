import { act, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { registerNavigate } from '../../shared/navigation';
import { queryClient } from '../../shared/queryClient';
import { renderWithProviders } from '../../test/render';
import { disposeAutoSave } from '../strategy/actions';
import { strategiesQuery } from '../strategy/queries';
import { resetEditorStore, useEditorStore, useWorkbenchStore } from '../strategy/store';
import { aiTaskKeys } from './queries';
import { resetAiTasksUi, useAiTasksUi } from './store';
import { TaskWatcher } from './TaskWatcher';
import { buildTask, json, pendingTask, stubServer } from './testSupport';

beforeEach(() => {
  resetAiTasksUi();
  resetEditorStore();
  queryClient.setQueryData(strategiesQuery.queryKey, []);
  useWorkbenchStore.setState({
    request: { chartId: 'chart-1', symbol: 'BTCUSDT', period: '1m' },
    open: true,
  });
});
afterEach(() => {
  useWorkbenchStore.setState({ request: null, open: false });
  disposeAutoSave();
});

const FIRST_PAGE = aiTaskKeys.page({ skip: 0, limit: 10 });

/** The list answers `first` once, then `then`. */
function listAnswers(first: unknown, then: unknown) {
  let served = 0;
  return () => json(served++ === 0 ? first : then);
}

describe('a task finishing while the editor is open', () => {
  it("offers to open it; Open in Editor creates 'AI_Strategy_…' and selects it", async () => {
    const server = stubServer({
      'GET /api/ai/strategies': listAnswers(
        { tasks: [pendingTask()], total: 1 },
        { tasks: [buildTask({ code: null, full_code: null })], total: 1 },
      ),
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
    const { user } = renderWithProviders(<TaskWatcher />);
    await waitFor(() => expect(queryClient.getQueryData(FIRST_PAGE)).toBeDefined());
    expect(server.called('GET /api/ai/strategies')).toHaveLength(1);
    expect(screen.queryByText('AI task 7 completed')).toBeNull();
    // the next poll finds it completed
    await act(() => queryClient.invalidateQueries({ queryKey: aiTaskKeys.pages }));
    expect(await screen.findByText('AI task 7 completed')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Open in Editor' }));
    const name = await waitFor(() => {
      const selected = useEditorStore.getState().selected;
      expect(selected).toMatch(/^AI_Strategy_\d{4}_\d\d_\d\d_\d\d_\d\d_\d\d$/);
      return selected!;
    });
    expect(
      await screen.findByText(`New strategy automatically created: ${name}`),
    ).toBeInTheDocument();
    expect(server.called('POST /api/ai/strategies/from-ai')[0]?.body).toEqual({
      name,
      task_id: 7,
    });
    expect(useEditorStore.getState().code).toBe(buildTask().code);
  });

  it('View Details opens the finished task, announced once', async () => {
    stubServer({
      'GET /api/ai/strategies': listAnswers(
        { tasks: [pendingTask({ status: 'PROCESSING' })], total: 1 },
        { tasks: [buildTask({ code: null, full_code: null })], total: 1 },
      ),
      'GET /api/ai/strategy/7': () => json(buildTask()),
      'POST /api/ai/strategies/from-ai': () =>
        json({ code: 40900, msg: 'conflict', detail: 'Strategy already exists: X' }, 409),
    });
    const { user } = renderWithProviders(<TaskWatcher />);
    await waitFor(() => expect(queryClient.getQueryData(FIRST_PAGE)).toBeDefined());
    await act(() => queryClient.invalidateQueries({ queryKey: aiTaskKeys.pages }));
    await user.click(await screen.findByRole('button', { name: 'View Details' }));
    expect(useAiTasksUi.getState().detailsId).toBe(7);

    await act(() => queryClient.invalidateQueries({ queryKey: aiTaskKeys.pages }));
    // announced once only
    expect(screen.queryByText('AI task 7 completed')).toBeNull();
  });

  it('is quiet while the editor is closed', async () => {
    useWorkbenchStore.setState({ open: false });
    const server = stubServer({ 'GET /api/ai/strategies': () => json({ tasks: [], total: 0 }) });
    renderWithProviders(<TaskWatcher />);
    await act(() => Promise.resolve());
    expect(server.called('GET /api/ai/strategies')).toHaveLength(0);
  });
});

describe('Open in Editor when the strategy cannot be created', () => {
  it("says 'Strategy creation failed: …' and offers the code as a diff, saving nothing", async () => {
    const server = stubServer({
      'GET /api/ai/strategy/7': () => json(buildTask()),
      'POST /api/ai/strategies/from-ai': () =>
        json({ code: 40900, msg: 'conflict', detail: 'Strategy already exists: X' }, 409),
    });
    const { openTaskInEditor } = await import('./actions');
    renderWithProviders(<div />);
    const outcome = await openTaskInEditor(7, new Date(2024, 0, 2, 3, 4, 5));
    expect(outcome).toEqual({
      success: false,
      message: 'Strategy creation failed: Strategy already exists: X',
    });
    // the selection keeps its code until the user accepts the diff
    expect(useEditorStore.getState().code).toBe('');
    expect(useEditorStore.getState().proposal).toMatchObject({
      code: buildTask().code,
      source: 'ai-task',
    });
    expect(useEditorStore.getState().selected).toBe('Default Strategy');
    expect(server.called('POST /api/strategies/')).toHaveLength(0);
  });
});

describe('a notice outliving the editor’s page (the profile)', () => {
  let leave = () => {};
  /** The editor's page, until the user leaves it for the profile. */
  function Page() {
    const [shown, setShown] = useState(true);
    leave = () => setShown(false);
    return shown ? <TaskWatcher /> : <div>Profile</div>;
  }

  /**
   * Task 7 finishing while the editor's page at `path` is shown: its notice's View Details,
   * and the routes asked for through the router.
   */
  async function finishedNotice(path: string) {
    stubServer({
      'GET /api/ai/strategies': listAnswers(
        { tasks: [pendingTask({ status: 'PROCESSING' })], total: 1 },
        { tasks: [buildTask({ code: null, full_code: null })], total: 1 },
      ),
      'GET /api/ai/strategy/7': () => json(buildTask()),
    });
    const routes: string[] = [];
    onTestFinished(registerNavigate((to) => routes.push(to)));
    onTestFinished(() => window.history.replaceState(null, '', '/'));
    window.history.replaceState(null, '', path);
    const { user } = renderWithProviders(<Page />);
    await waitFor(() => expect(queryClient.getQueryData(FIRST_PAGE)).toBeDefined());
    await act(() => queryClient.invalidateQueries({ queryKey: aiTaskKeys.pages }));
    const view = await screen.findByRole('button', { name: 'View Details' });
    return { user, view, routes };
  }

  it('View Details goes back to the workspace, where the details open at once', async () => {
    const { user, view, routes } = await finishedNotice('/desktop?layout=2');
    expect(routes).toEqual([]);
    // the user goes to the profile: the editor and its task modals unmount, the notice stays
    act(() => leave());
    await user.click(view);
    expect(routes).toEqual(['/desktop?layout=2']);
    expect(useAiTasksUi.getState().detailsId).toBe(7);
  });

  it("View Details goes back while the profile's code still loads and the workspace is still drawn", async () => {
    const { user, view, routes } = await finishedNotice('/desktop');
    // the address says profile; the router keeps the workspace until the profile is drawn
    window.history.pushState(null, '', '/profile');
    await user.click(view);
    expect(routes).toEqual(['/desktop']);
    expect(useAiTasksUi.getState().detailsId).toBe(7);
  });
});
