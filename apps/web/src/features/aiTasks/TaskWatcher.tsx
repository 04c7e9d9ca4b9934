import { App, Button, Space } from 'antd';
import { useEffect, useRef } from 'react';
import { messages } from '../../i18n/messages';
import { useWorkbenchStore } from '../strategy/store';
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
  const { notification } = App.useApp();
  const { data } = useTaskPage(FIRST_PAGE, open);
  const seen = useRef(new Map<number, string>());

  // The notices outlive this page: their buttons come back here from another (the profile).
  useEffect(() => tasksMounted(window.location.pathname + window.location.search), []);

  useEffect(() => {
    if (!data) return;
    for (const { id, view } of finishedSince(seen.current, data.tasks)) {
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
    for (const task of data.tasks) seen.current.set(task.id, task.status);
  }, [data, notification]);

  return null;
}
