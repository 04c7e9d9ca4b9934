import type { ReactNode } from 'react';
import { useEffect } from 'react';
import { Navigate } from 'react-router';
import { useShallow } from 'zustand/react/shallow';
import { selectTrader, useAuthStore } from '../features/auth';

/**
 * Login guard (spec section 2): without a stored user id and user name the visitor goes
 * to /login. Without a current trading account the first account of the stored user is
 * selected, and nothing renders until it is (a user without accounts sees the page).
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { userId, userName, firstTrader, hasCurrent } = useAuthStore(
    useShallow((s) => ({
      userId: s.userId,
      userName: s.userName,
      firstTrader: s.user?.traders[0] ?? null,
      hasCurrent: s.currentTrader !== null,
    })),
  );
  const signedIn = Boolean(userId && userName);
  const mustSelect = signedIn && !hasCurrent && firstTrader !== null;

  useEffect(() => {
    if (mustSelect && firstTrader) selectTrader(firstTrader);
  }, [mustSelect, firstTrader]);

  if (!signedIn) return <Navigate to="/login" replace />;
  if (mustSelect) return null;
  return <>{children}</>;
}
