import { create } from 'zustand';
import { fetchStrategyTemplate } from './api';

/** The strategy template code of the chart page (the built-in Default strategy's code). */
export const useStrategyTemplateStore = create<{ code: string | null }>(() => ({ code: null }));

let request: Promise<string> | null = null;

/** Loads the template once; concurrent callers share the request. */
export function loadStrategyTemplate(): Promise<string> {
  const known = useStrategyTemplateStore.getState().code;
  if (known !== null) return Promise.resolve(known);
  request ??= fetchStrategyTemplate()
    .then((code) => {
      useStrategyTemplateStore.setState({ code });
      return code;
    })
    .finally(() => {
      request = null;
    });
  return request;
}
