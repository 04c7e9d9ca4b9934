import { create } from 'zustand';
import { readChoice, STORAGE_KEYS, writeString } from '../../../shared/storage';

export const SIDE_BUTTONS = [
  'trading',
  'analysis',
  'notifications',
  'alerts',
  'settings',
  'profile',
] as const;
export type SideButton = (typeof SIDE_BUTTONS)[number];
/** The open side panel, or 'none' when it is closed (spec section 4). */
export type SidePanelState = SideButton | 'none';

const CHOICES = [...SIDE_BUTTONS, 'none'] as const;

export const useSidePanelStore = create<{ active: SidePanelState }>(() => ({
  active: readChoice(STORAGE_KEYS.sideBarButton, CHOICES, 'trading'),
}));

function setActive(active: SidePanelState): void {
  writeString(STORAGE_KEYS.sideBarButton, active);
  useSidePanelStore.setState({ active });
}

/** Clicking the active side button closes the panel; another button opens its panel. */
export function nextSidePanel(active: SidePanelState, clicked: SideButton): SidePanelState {
  return active === clicked ? 'none' : clicked;
}

export function clickSideButton(clicked: SideButton): void {
  setActive(nextSidePanel(useSidePanelStore.getState().active, clicked));
}

export function closeSidePanel(): void {
  setActive('none');
}

/** Opens a side panel (a chart trade action opens the trading panel). */
export function openSidePanel(button: SideButton): void {
  if (useSidePanelStore.getState().active !== button) setActive(button);
}
