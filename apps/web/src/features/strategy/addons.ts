import { createElement, Fragment, type ReactNode } from 'react';
import { create } from 'zustand';

/**
 * What a feature above the workbench adds to it without the workbench importing that
 * feature (features depend one way: apps/web/boundaries.js): the AI strategy tasks give
 * their modals and the toolbar's AI Task List and Generate Strategy Prompt actions; the live
 * runs their modals and the Run live on paper and Live Runs actions. The app registers them
 * at start-up; until then their buttons are disabled.
 */
export type WorkbenchAddons = {
  /** Rendered inside the editor modal (the add-ons' own modals). */
  panels: ReactNode;
  openTaskList: (() => void) | null;
  openPrompt: (() => void) | null;
  /** Run live on paper: the form that starts a forward test of the selected strategy. */
  openLiveRun: (() => void) | null;
  /** The Live Runs panel. */
  openLiveRuns: (() => void) | null;
};

const NONE: WorkbenchAddons = {
  panels: null,
  openTaskList: null,
  openPrompt: null,
  openLiveRun: null,
  openLiveRuns: null,
};

export const useWorkbenchAddons = create<WorkbenchAddons>(() => NONE);

/** The add-ons plugged in, in registration order (each add-on gives only its own parts). */
let plugged: { id: number; addons: Partial<WorkbenchAddons> }[] = [];
let nextId = 1;

function publish(): void {
  const state: WorkbenchAddons = { ...NONE };
  for (const { addons } of plugged) Object.assign(state, { ...addons, panels: null });
  state.panels = plugged.some((p) => p.addons.panels)
    ? plugged.map((p) => createElement(Fragment, { key: p.id }, p.addons.panels))
    : null;
  useWorkbenchAddons.setState(state);
}

const actionsOf = (addons: Partial<WorkbenchAddons>) =>
  Object.keys(addons).filter((key) => key !== 'panels');

/**
 * Plugs an add-on into the workbench; returns the unplug function (its own parts only). An
 * add-on registered again (the same actions) replaces its earlier registration.
 */
export function registerWorkbenchAddons(addons: Partial<WorkbenchAddons>): () => void {
  const id = nextId++;
  const actions = actionsOf(addons);
  plugged = [
    ...plugged.filter((p) => !actionsOf(p.addons).some((key) => actions.includes(key))),
    { id, addons },
  ];
  publish();
  return () => {
    plugged = plugged.filter((p) => p.id !== id);
    publish();
  };
}
