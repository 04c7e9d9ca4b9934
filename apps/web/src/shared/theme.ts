import { create } from 'zustand';
import { readString, STORAGE_KEYS, writeString } from './storage';

export type ThemeMode = 'light' | 'dark';

const DARK_QUERY = '(prefers-color-scheme: dark)';

function systemMode(): ThemeMode {
  return typeof window.matchMedia === 'function' && window.matchMedia(DARK_QUERY).matches
    ? 'dark'
    : 'light';
}

function storedMode(): ThemeMode | null {
  const raw = readString(STORAGE_KEYS.theme);
  return raw === 'light' || raw === 'dark' ? raw : null;
}

type ThemeState = {
  mode: ThemeMode;
  /** True once the user picked a theme; until then the system preference is followed. */
  chosen: boolean;
};

export const useThemeStore = create<ThemeState>(() => {
  const stored = storedMode();
  return { mode: stored ?? systemMode(), chosen: stored !== null };
});

/** The user picks a theme: it is persisted and no longer follows the system. */
export function setThemeMode(mode: ThemeMode): void {
  writeString(STORAGE_KEYS.theme, mode);
  useThemeStore.setState({ mode, chosen: true });
}

export function toggleTheme(): void {
  setThemeMode(useThemeStore.getState().mode === 'dark' ? 'light' : 'dark');
}

/**
 * Follows changes of the system preference while the user has not chosen a theme.
 * Returns the function that stops following.
 */
export function followSystemTheme(): () => void {
  if (typeof window.matchMedia !== 'function') return () => {};
  const query = window.matchMedia(DARK_QUERY);
  const onChange = () => {
    if (!useThemeStore.getState().chosen) {
      useThemeStore.setState({ mode: query.matches ? 'dark' : 'light' });
    }
  };
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}
