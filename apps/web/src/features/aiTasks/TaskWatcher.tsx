import { Button, Space } from 'antd';
import { useEffect, useRef } from 'react';
import { aiTasks as messages } from '../../i18n/defaults/aiTasks';
import { appApi, type AppApi } from '../../shared/appApi';
import { useWorkbenchStore } from '../strategy';
import { openTaskInEditor, returnToTasks, tasksMounted, viewTaskDetails } from './actions';
import { DEFAULT_TASK_PAGE_SIZE, finishedSince } from './logic';
import { useTaskPage } from './queries';

const m = messages.aiTasks;
const FIRST_PAGE = { skip: 0, limit: DEFAULT_TASK_PAGE_SIZE };
// Bottom left: the modals' close buttons and footers (top and bottom right) stay free.
const PLACEMENT = 'bottomLeft';

/**
 * Mounted with the task modals (in the Python Code Editor). While the editor is open it
 * watches the newest tasks (the list's first page, polled only while one of them is waiting
 * or processing) and announces each that finishes: a completed task offers its Details and
 * to open its code in the editor, from whichever page the user is on by then.
 */
export function TaskWatcher() {
  const open = useWorkbenchStore((s) => s.open);
  const { data } = useTaskPage(FIRST_PAGE, open);
  const seen = useRef(new Map<number, string>());

  // The notices outlive this page: their buttons come back here from another (the profile).
  useEffect(() => tasksMounted(window.location.pathname + window.location.search), []);

  useEffect(() => {
    if (!data) return;
    const finished = finishedSince(seen.current, data.tasks);
    for (const task of data.tasks) seen.current.set(task.id, task.status);
    // antd's App (its notifications) may still be loading (shared/appApi.ts)
    if (finished.length > 0) void appApi().then((app) => announce(app, finished));
  }, [data]);

  return null;
}

/** One notice per task that finished: completed (Details, Open in Editor) or failed. */
function announce({ notification }: AppApi, finished: ReturnType<typeof finishedSince>): void {
  for (const { id, view } of finished) {
    const key = `ai-task-${id}`;
    const details = (
      <Button
        size="small"
        onClick={() => {
          notification.destroy(key);
          viewTaskDetails(id);
        }}
      >
        {m.viewDetails}
      </Button>
    );
    if (view === 'completed') {
      notification.success({
        key,
        title: m.completedToast(id),
        description: m.completedText,
        duration: 0,
        placement: PLACEMENT,
        actions: (
          <Space>
            {details}
            <Button
              type="primary"
              size="small"
              onClick={() => {
                notification.destroy(key);
                returnToTasks();
                void openTaskInEditor(id);
              }}
            >
              {m.openInEditor}
            </Button>
          </Space>
        ),
      });
    } else {
      notification.error({
        key,
        title: m.failedToast(id),
        duration: 0,
        placement: PLACEMENT,
        actions: details,
      });
    }
  }
}
