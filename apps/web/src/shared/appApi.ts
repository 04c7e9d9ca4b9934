import type { App } from 'antd';
import { use } from 'react';
import { create } from 'zustand';

/** The themed message, notification and modal APIs of antd's App. */
export type AppApi = ReturnType<typeof App.useApp>;

/*
 * antd's App (message, notification, modal, with their code) is not in the first load: the
 * app's providers mount it (app/AppApiHost.tsx) after the first drawn chart, or at once
 * when something asks for it first (a toast before that, a confirmation), and it registers
 * its APIs here.
 */
/** `hosts`: the providers that would mount the App (none where a test renders without them). */
type AppApiState = { wanted: boolean; api: AppApi | null; hosts: number };

export const useAppApiStore = create<AppApiState>(() => ({ wanted: false, api: null, hosts: 0 }));

let resolveReady: (api: AppApi) => void = () => undefined;
let ready: Promise<AppApi>;
function awaitNextApi(): void {
  ready = new Promise<AppApi>((resolve) => {
    resolveReady = resolve;
  });
}
awaitNextApi();

/** The mounted App gives its APIs (app/AppApiHost.tsx); returns the unregister. */
export function registerAppApi(api: AppApi): () => void {
  useAppApiStore.setState({ api });
  resolveReady(api);
  return () => {
    // an unmounted App's holders show nothing: wait for the next one
    if (useAppApiStore.getState().api !== api) return;
    useAppApiStore.setState({ api: null });
    awaitNextApi();
  };
}

/** The App's APIs, once it is mounted (asks for it). */
export function appApi(): Promise<AppApi> {
  // later, not now: this may run while a component renders (useAppApi)
  if (!useAppApiStore.getState().wanted) {
    queueMicrotask(() => useAppApiStore.setState({ wanted: true }));
  }
  return ready;
}

/** The App's APIs in a component (suspends until the App is mounted; asks for it). */
export function useAppApi(): AppApi {
  const api = useAppApiStore((s) => s.api);
  // `use` may be called conditionally: only while the App is not there yet
  return api ?? use(appApi());
}
