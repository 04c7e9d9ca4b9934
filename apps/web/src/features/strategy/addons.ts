import type { ReactNode } from 'react';
import { create } from 'zustand';

/**
 * What a feature above the workbench adds to it without the workbench importing that
 * feature (features depend one way: apps/web/boundaries.js): the AI strategy tasks give
 * their modals and the toolbar's AI Task List and Generate Strategy Prompt actions. The app
 * registers them at start-up; until then the two buttons are disabled.
 */
export type WorkbenchAddons = {
  /** Rendered inside the editor modal (the add-on's own modals). */
  panels: ReactNode;
  openTaskList: (() => void) | null;
  openPrompt: (() => void) | null;
};

export const useWorkbenchAddons = create<WorkbenchAddons>(() => ({
  panels: null,
  openTaskList: null,
  openPrompt: null,
}));

/** Plugs an add-on into the workbench; returns the unplug function. */
export function registerWorkbenchAddons(addons: WorkbenchAddons): () => void {
  useWorkbenchAddons.setState(addons);
  return () => useWorkbenchAddons.setState({ panels: null, openTaskList: null, openPrompt: null });
}
