import './aiTasks.css';
import { ConversationModal } from './ConversationModal';
import { CreateTaskModal } from './CreateTaskModal';
import { PromptModal } from './PromptModal';
import { TaskDetailsModal } from './TaskDetailsModal';
import { TaskListModal } from './TaskListModal';
import { TaskWatcher } from './TaskWatcher';

/**
 * The AI strategy task modals of the Python Code Editor and the watcher that announces
 * finished tasks. Mounted in this order, so a modal opened from another sits above it.
 */
export function AiTaskPanels() {
  return (
    <>
      <TaskWatcher />
      <PromptModal />
      <TaskListModal />
      <CreateTaskModal />
      <TaskDetailsModal />
      <ConversationModal />
    </>
  );
}
