import { DEFAULT_AI_TASK_TYPE, SHARED_ACTIONS, actionResultSchema } from '@ct/domain';
import { failureReason } from '../../api/client';
import { aiTasks } from '../../i18n/defaults/aiTasks';
import { strategy } from '../../i18n/defaults/strategy';
import { isChildFrame } from '../../realtime/connection';
import { requestSharedAction } from '../../realtime/frameActions';
import { navigateTo } from '../../shared/navigation';
import { notify } from '../../shared/notify';
import { done, failed, refused, type Outcome } from '../../shared/outcome';
import { loadAssistantSettings, useAssistantSettings } from '../assistant';
import {
  proposeCode,
  selectStrategy,
  workbenchTarget,
  newStrategyNameProblem,
  putSavedStrategy,
  refetchStrategies,
  strategyListKnown,
  useEditorStore,
  useWorkbenchStore,
} from '../strategy';
import {
  createStrategyFromTask as saveTaskAsStrategy,
  createTask,
  deleteTask,
  type CreateTaskRequest,
} from './api';
import { autoStrategyName, taskCode } from './logic';
import { forgetTask, loadTask, refetchTaskPages } from './queries';
import { useAiTasksUi, type AiTasksUi } from './store';

/** This module's texts (their sections, shared with messages.ts). */
const messages = { ...aiTasks, ...strategy };

/*
 * The AI task operations, one plain function each: the modals' buttons, the completion
 * notice and tests call them the same way. Each shows the spec's message and resolves with
 * its outcome instead of throwing.
 */

const m = messages.aiTasks;
const sm = messages.strategy;

const ui = (patch: Partial<AiTasksUi>) => useAiTasksUi.setState(patch);

// ---- Opening and closing ----

/** Where the modals mount when the user is elsewhere: the desktop workspace. */
const WORKSPACE = '/desktop';

/** The modals mounted on the page at `path` (they live in the Python Code Editor). */
export function tasksMounted(path: string): () => void {
  ui({ mounted: true, shownOn: path });
  return () => ui({ mounted: false });
}

/**
 * The task modals' page: where the user is when they are mounted there; from a page without
 * them (the profile) the page they were last shown on (the workspace), where whatever the
 * store asks for opens at once. The router keeps the old page mounted while the next one's
 * code loads, so "mounted" alone does not say the user is still there: the address does.
 */
export function returnToTasks(): void {
  const { mounted, shownOn } = useAiTasksUi.getState();
  const here = window.location.pathname + window.location.search;
  if (!mounted || (shownOn !== null && shownOn !== here)) navigateTo(shownOn ?? WORKSPACE);
}

/** View Details (the completion notice): the task's Details, here or on the workspace. */
export function viewTaskDetails(id: number): void {
  openDetails(id);
  returnToTasks();
}

export function openTaskList(): void {
  ui({ listOpen: true });
}
export function closeTaskList(): void {
  ui({ listOpen: false });
}
/** The list's page and page size (a new size starts at the first page). */
export function setTaskPage(current: number, pageSize: number): void {
  const { page } = useAiTasksUi.getState();
  const skip = pageSize === page.limit ? (current - 1) * pageSize : 0;
  ui({ page: { skip, limit: pageSize } });
}
/** Refresh: every page of the list fetched again now. */
export function refreshTaskList(): Promise<void> {
  return refetchTaskPages();
}
export function openCreateTask(): void {
  ui({ createOpen: true });
}
export function closeCreateTask(): void {
  ui({ createOpen: false });
}
export function openPrompt(): void {
  ui({ promptOpen: true });
}
export function closePrompt(): void {
  ui({ promptOpen: false });
}
export function openDetails(id: number): void {
  ui({ detailsId: id });
}
export function closeDetails(): void {
  ui({ detailsId: null, strategyFromId: null, resultsId: null });
}
export function openConversation(id: number): void {
  ui({ conversationId: id });
}
export function closeConversation(): void {
  ui({ conversationId: null });
}
export function openResults(id: number): void {
  ui({ resultsId: id });
}
export function closeResults(): void {
  ui({ resultsId: null });
}
export function openCreateStrategy(id: number): void {
  ui({ strategyFromId: id });
}
export function closeCreateStrategy(): void {
  ui({ strategyFromId: null });
}

// ---- Creating ----

/** What the Create AI Strategy Task form holds. */
export type TaskFormValues = {
  prompt: string;
  provider: string;
  model: string;
  baseURL: string;
  apiKey?: string;
};

/** The chart a new task backtests on: the editor's (its current symbol and period). */
function activeChart(): { symbol: string; period: string } | null {
  const chart = workbenchTarget();
  return chart?.symbol ? { symbol: chart.symbol, period: chart.period } : null;
}

/**
 * Creates a task for `chart` (no toast): its id, or the reason it failed. The task's log
 * and markers address `clientId` (the editor's, unless a frame's chart asked).
 */
export async function createTaskFor(
  values: TaskFormValues,
  chart: { symbol: string; period: string },
  options: { clientId?: string; taskType?: string } = {},
): Promise<{ id: number } | { reason: string }> {
  const apiKey = values.apiKey?.trim() ?? '';
  const body: CreateTaskRequest = {
    prompt: values.prompt.trim(),
    provider: values.provider,
    model: values.model,
    base_url: values.baseURL,
    ...(apiKey ? { api_key: apiKey } : {}),
    symbol_id: chart.symbol,
    period: chart.period,
    client_id: options.clientId ?? useEditorStore.getState().clientId,
    task_type: options.taskType ?? DEFAULT_AI_TASK_TYPE,
  };
  try {
    const answer = await createTask(body);
    void refetchTaskPages();
    return { id: answer.id };
  } catch (error) {
    const detail = failureReason(error);
    return { reason: detail ? m.creationFailed(detail) : m.createFailed };
  }
}

async function postTask(
  values: TaskFormValues,
  chart: { symbol: string; period: string },
): Promise<Outcome & { id?: number }> {
  const created = await createTaskFor(values, chart);
  if ('reason' in created) return failed(created.reason);
  return { success: true, message: null, id: created.id };
}

/** The task form of a description with the model of the API Settings (null: unavailable). */
export async function settingsTaskValues(description: string): Promise<TaskFormValues | null> {
  try {
    await loadAssistantSettings();
  } catch {
    return null;
  }
  const settings = useAssistantSettings.getState();
  const provider = settings.providers?.find((p) => p.value === settings.provider);
  return {
    prompt: description,
    provider: settings.provider,
    model: settings.model,
    baseURL: settings.baseURL || provider?.base_url || '',
  };
}

/**
 * Create AI Strategy Task: a task for the active chart with the form's description and
 * model; the key may be left blank when one is saved in the settings.
 */
export async function submitTask(values: TaskFormValues): Promise<Outcome & { id?: number }> {
  const chart = activeChart();
  if (!chart) return refused(m.noActiveChart);
  const outcome = await postTask(values, chart);
  if (!outcome.success) return outcome;
  closeCreateTask();
  return { ...done(m.created), id: outcome.id };
}

/**
 * Send Prompt: a task for the active chart with the described logic and the model of the
 * API Settings; the task list opens on it. In a child frame the main window creates it
 * (`chartActions/createAITask` with the chart's client id).
 */
export async function sendPrompt(description: string): Promise<Outcome & { id?: number }> {
  if (!description.trim()) return { success: false, message: null };
  const chart = activeChart();
  if (!chart) return refused(m.noActiveChart);
  let id: number | undefined;
  if (isChildFrame()) {
    let result: { success: boolean; reason?: string | undefined };
    try {
      result = actionResultSchema.parse(
        await requestSharedAction(SHARED_ACTIONS.createAITask, {
          clientId: useEditorStore.getState().clientId,
          prompt: description.trim(),
          taskType: DEFAULT_AI_TASK_TYPE,
        }),
      );
    } catch (error) {
      result = { success: false, reason: failureReason(error) ?? m.createFailed };
    }
    if (!result.success) return failed(result.reason ?? m.createFailed);
  } else {
    const values = await settingsTaskValues(description);
    if (!values) return failed(m.providersFailed);
    const outcome = await postTask(values, chart);
    if (!outcome.success) return outcome;
    id = outcome.id;
  }
  ui({ promptOpen: false, listOpen: true, page: { ...useAiTasksUi.getState().page, skip: 0 } });
  return { ...done(m.prompt.sent), ...(id === undefined ? {} : { id }) };
}

// ---- Deleting ----

/** Delete: the task and its conversation (a waiting or running task is cancelled). */
export async function removeTask(id: number): Promise<Outcome> {
  try {
    await deleteTask(id);
  } catch {
    return failed(m.deleteFailed);
  }
  const { detailsId, conversationId } = useAiTasksUi.getState();
  if (detailsId === id) closeDetails();
  if (conversationId === id) closeConversation();
  forgetTask(id);
  return done(m.deleted);
}

// ---- Strategies from tasks ----

async function putStrategy(answer: Parameters<typeof putSavedStrategy>[0]): Promise<void> {
  if (strategyListKnown()) putSavedStrategy(answer);
  else await refetchStrategies().catch(() => notify.error(sm.loadListFailed));
}

/**
 * The editor, in front of the task modals (closed), with the new strategy `name` selected.
 * A pending auto-save of the previous selection is saved first: nothing is replaced.
 */
function showInEditor(name: string): void {
  showInEditorAsIs();
  selectStrategy(name);
}

/** The editor in front of the task modals (closed), its selection unchanged. */
function showInEditorAsIs(): void {
  ui({
    listOpen: false,
    detailsId: null,
    conversationId: null,
    resultsId: null,
    strategyFromId: null,
  });
  const workbench = useWorkbenchStore.getState();
  if (workbench.request && !workbench.open) useWorkbenchStore.setState({ open: true });
}

/**
 * Create as Strategy: the completed task's code saved as a new strategy named `rawName` (a
 * taken name is refused, never overwritten), then shown selected in the editor. A name the
 * rules refuse comes back `inline`.
 */
export async function createStrategyFromTask(
  taskId: number,
  rawName: string,
): Promise<Outcome & { inline?: boolean }> {
  const problem = newStrategyNameProblem(rawName);
  if (problem) return { success: false, message: problem, inline: true };
  try {
    const name = rawName.trim();
    const answer = await saveTaskAsStrategy(name, taskId);
    await putStrategy(answer);
    showInEditor(name);
    return done(sm.created);
  } catch (error) {
    const detail = failureReason(error);
    return failed(detail ? sm.createFailedDetail(detail) : sm.createFailed);
  }
}

/**
 * Open in Editor (the completion notice): the task's code saved as a new strategy named
 * AI_Strategy_<local date-time> and selected in the editor. When the save fails the code is
 * offered to the selection as a diff (Accept or Reject): saved code is never replaced unasked.
 */
export async function openTaskInEditor(taskId: number, now = new Date()): Promise<Outcome> {
  let code: string | null;
  try {
    code = taskCode(await loadTask(taskId));
  } catch {
    return { success: false, message: m.taskFailed };
  }
  if (!code) return refused(m.noCode);
  const name = autoStrategyName(now);
  try {
    const answer = await saveTaskAsStrategy(name, taskId);
    await putStrategy(answer);
    showInEditor(name);
    return done(m.autoCreated(name));
  } catch (error) {
    const detail = failureReason(error);
    showInEditorAsIs();
    proposeCode(code, 'ai-task');
    return failed(detail ? m.autoCreateFailedDetail(detail) : m.autoCreateFailed);
  }
}
