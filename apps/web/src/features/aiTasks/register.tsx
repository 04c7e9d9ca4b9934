import { registerWorkbenchAddons } from '../strategy/addons';
import { openPrompt, openTaskList } from './actions';
import { AiTaskPanels } from './AiTaskPanels';

/** Plugs the AI strategy tasks into the Python Code Editor (its two buttons and modals). */
export function registerAiTasks(): () => void {
  return registerWorkbenchAddons({ panels: <AiTaskPanels />, openTaskList, openPrompt });
}
