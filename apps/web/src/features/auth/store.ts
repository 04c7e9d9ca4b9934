import { loginResponseSchema, traderSchema, userSchema } from '@ct/domain';
import type { Trader, User } from '@ct/domain';
import { create } from 'zustand';
import { ApiError, onAuthFailure } from '../../api/client';
import { navigateTo } from '../../shared/navigation';
import { notify } from '../../shared/notify';
import {
  clearSessionStorage,
  readJson,
  readString,
  STORAGE_KEYS,
  writeJson,
  writeString,
} from '../../shared/storage';
import { messages } from '../../i18n/firstScreen';
import { loginRequest, logoutRequest } from './api';

export type AuthState = {
  userId: string | null;
  /** The login email. */
  userName: string | null;
  user: User | null;
  isLoggedIn: boolean;
  currentTrader: Trader | null;
};

const signedOut: AuthState = {
  userId: null,
  userName: null,
  user: null,
  isLoggedIn: false,
  currentTrader: null,
};

/** The session as localStorage holds it; invalid JSON reads as absent. */
export function readStoredAuth(): AuthState {
  return {
    userId: readString(STORAGE_KEYS.userId),
    userName: readString(STORAGE_KEYS.userName),
    user: readJson(STORAGE_KEYS.userData, userSchema),
    isLoggedIn: readString(STORAGE_KEYS.isLoggedIn) === 'true',
    currentTrader: readJson(STORAGE_KEYS.currentTrader, traderSchema),
  };
}

export const useAuthStore = create<AuthState>(() => readStoredAuth());

/** Re-reads localStorage (tests and other tabs). */
export function reloadAuthFromStorage(): void {
  useAuthStore.setState(readStoredAuth());
}

// A 50002 answer has already cleared localStorage; drop the in-memory copy too.
onAuthFailure(() => useAuthStore.setState(signedOut));

function clearSession(): void {
  clearSessionStorage();
  useAuthStore.setState(signedOut);
}

/** Makes a trader current without a message (the guard uses it for the first trader). */
export function selectTrader(trader: Trader): void {
  writeJson(STORAGE_KEYS.currentTrader, trader);
  useAuthStore.setState({ currentTrader: trader });
}

function storeUser(email: string, user: User): void {
  const userId = String(user.id);
  writeString(STORAGE_KEYS.userId, userId);
  writeString(STORAGE_KEYS.userName, email);
  writeJson(STORAGE_KEYS.userData, user);
  writeString(STORAGE_KEYS.isLoggedIn, 'true');
  const first = user.traders[0] ?? null;
  if (first) writeJson(STORAGE_KEYS.currentTrader, first);
  useAuthStore.setState({
    userId,
    userName: email,
    user,
    isLoggedIn: true,
    currentTrader: first,
  });
}

/**
 * Logs in with email and password. Shows the spec's message, stores the user with its
 * first trader as current and goes to '/'. Resolves true on success.
 */
export async function login(email: string, password: string): Promise<boolean> {
  const userName = email.trim();
  let answer;
  try {
    answer = await loginRequest(userName, password);
  } catch (error) {
    // A refused login may come with a non-2xx status (429 rate limit); its msg still counts.
    const refused = error instanceof ApiError ? loginResponseSchema.safeParse(error.body) : null;
    if (refused?.success && refused.data.status !== 0) {
      notify.error(refused.data.msg || messages.login.incorrect);
    } else {
      notify.error(messages.login.failed);
    }
    return false;
  }
  if (answer.status !== 0) {
    notify.error(answer.msg || messages.login.incorrect);
    return false;
  }
  const user = answer.data[0];
  if (!user) {
    notify.error(messages.login.noUserData);
    return false;
  }
  storeUser(userName, user);
  notify.success(messages.login.success);
  navigateTo('/');
  return true;
}

/** Makes the trader with this uuid current. Resolves false when the user has no such trader. */
export function switchTrader(uuid: string): boolean {
  const trader = useAuthStore.getState().user?.traders.find((t) => t.uuid === uuid);
  if (!trader) return false;
  selectTrader(trader);
  notify.success(messages.accounts.switched);
  return true;
}

/** Ends the session on the server (best effort), forgets it here and goes to /login. */
export async function logout(): Promise<void> {
  try {
    await logoutRequest();
  } catch {
    // The session is forgotten locally whatever the server answered.
  }
  clearSession();
  navigateTo('/login', { replace: true });
}
