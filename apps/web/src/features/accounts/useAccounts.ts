import { useShallow } from 'zustand/react/shallow';
import { useAuthStore } from '../auth';

/** The signed-in user's trading accounts and the current one. */
export function useAccounts() {
  return useAuthStore(
    useShallow((s) => ({
      user: s.user,
      traders: s.user?.traders ?? EMPTY,
      currentTrader: s.currentTrader,
    })),
  );
}

const EMPTY: never[] = [];
