import { create } from 'zustand';
import type { TaskPage } from './api';
import { DEFAULT_TASK_PAGE_SIZE } from './logic';

/*
 * The AI task modals' UI state (server state is in the query cache, see `queries.ts`): which
 * modal is open, for which task, and the list's page.
 */
export type AiTasksUi = {
  listOpen: boolean;
  page: TaskPage;
  createOpen: boolean;
  promptOpen: boolean;
  /** The task whose Details are shown. */
  detailsId: number | null;
  /** The task whose Conversation History is shown. */
  conversationId: number | null;
  /** The task whose trades and equity curve are shown (the results view). */
  resultsId: number | null;
  /** The task the nested 'Create Strategy' name dialog saves. */
  strategyFromId: number | null;
  /** The page (path and query) the modals were last mounted on; null while they are. */
  shownOn: string | null;
  /** Whether the modals are mounted on the current page. */
  mounted: boolean;
};

function initialUi(): AiTasksUi {
  return {
    listOpen: false,
    page: { skip: 0, limit: DEFAULT_TASK_PAGE_SIZE },
    createOpen: false,
    promptOpen: false,
    detailsId: null,
    conversationId: null,
    resultsId: null,
    strategyFromId: null,
    shownOn: null,
    mounted: false,
  };
}

export const useAiTasksUi = create<AiTasksUi>(initialUi);

/** Test helper: every modal closed, the first page. */
export function resetAiTasksUi(): void {
  useAiTasksUi.setState(initialUi());
}
