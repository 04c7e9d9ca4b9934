import type { z } from 'zod';

/** Every localStorage key the web client uses (spec sections 3 and 9). */
export const STORAGE_KEYS = {
  theme: 'theme',
  /** The language of the texts: 'en' or 'zh-CN'; none is the spec's default texts. */
  language: 'language',
  userId: 'userId',
  userName: 'userName',
  userData: 'userData',
  isLoggedIn: 'isLoggedIn',
  currentTrader: 'currentTrader',
  chartLayout: 'chartLayout',
  chartCells: 'chartCells',
  sideBarButton: 'sideBarButton',
  bottomPanelSize: 'bottomPanelSize',
  bottomPanelTab: 'bottomPanelTab',
  bottomPanelSubTab: 'bottomPanelSubTab',
  /** The AI chat settings' provider, model and endpoint (spec section 9). */
  aiProvider: 'aiChatProvider',
  aiModel: 'aiChatModel',
  aiBaseURL: 'aiChatBaseURL',
} as const;

/** The keys a logout or a token failure (50002) removes. */
export const SESSION_KEYS = [
  STORAGE_KEYS.userId,
  STORAGE_KEYS.userName,
  STORAGE_KEYS.userData,
  STORAGE_KEYS.isLoggedIn,
  STORAGE_KEYS.currentTrader,
] as const;

// Storage can throw (privacy modes, quota); the UI must keep working without it.
export function readString(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeString(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Not persisted; the in-memory state still holds the value.
  }
}

export function removeKey(key: string): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // Nothing stored to remove.
  }
}

/** Reads a JSON value and checks it against its schema; anything else reads as null. */
export function readJson<T extends z.ZodType>(key: string, schema: T): z.infer<T> | null {
  const raw = readString(key);
  if (raw === null) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function writeJson(key: string, value: unknown): void {
  writeString(key, JSON.stringify(value));
}

/** Reads one of a fixed set of string values, or the fallback. */
export function readChoice<T extends string>(key: string, choices: readonly T[], fallback: T): T {
  const raw = readString(key);
  return choices.find((choice) => choice === raw) ?? fallback;
}

export function clearSessionStorage(): void {
  for (const key of SESSION_KEYS) removeKey(key);
}
