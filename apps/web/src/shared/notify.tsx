import { message as staticMessage } from 'antd';
import type { App } from 'antd';

type MessageInstance = ReturnType<typeof App.useApp>['message'];

let instance: MessageInstance | null = null;

/** The antd `App` registers its themed message API here (see NotifierBridge). */
export function registerNotifier(api: MessageInstance): () => void {
  instance = api;
  return () => {
    if (instance === api) instance = null;
  };
}

function api(): MessageInstance {
  return instance ?? staticMessage;
}

/** Toasts for plain actions that run outside React components. */
export const notify = {
  success: (text: string) => void api().success(text),
  error: (text: string) => void api().error(text),
  warning: (text: string) => void api().warning(text),
  info: (text: string) => void api().info(text),
};
