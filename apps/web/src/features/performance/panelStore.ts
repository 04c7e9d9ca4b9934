import { create } from 'zustand';
import { readString, writeString } from '../../shared/storage';

const STORAGE_KEY = 'perfMonitorPanel';

/** Whether the floating performance monitoring panel is open (kept across reloads). */
export const useMonitorPanel = create<{ open: boolean }>(() => ({
  open: readString(STORAGE_KEY) === '1',
}));

function setOpen(open: boolean): void {
  useMonitorPanel.setState({ open });
  writeString(STORAGE_KEY, open ? '1' : '0');
}

export const openMonitorPanel = () => setOpen(true);
export const closeMonitorPanel = () => setOpen(false);
export const toggleMonitorPanel = () => setOpen(!useMonitorPanel.getState().open);
