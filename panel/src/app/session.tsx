import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, type ReactNode } from 'react';
import { Redirect, useLocation } from 'wouter';
import { berth, onSignedOut } from '../api/berth.ts';
import { isUnauthenticated } from '../api/errors.ts';
import { Loading } from '../components/Loading.tsx';

export type Me = Awaited<ReturnType<typeof berth.me.get>>;

const MeContext = createContext<Me | null>(null);

/** The signed-in user in the session's team (GET /v1/me), inside a RequireSession. */
export function useMe(): Me {
  const me = useContext(MeContext);
  if (!me) throw new Error('useMe outside <RequireSession>');
  return me;
}

/** The session's user: asked once per minute at most, never retried (a 401 means signed out). */
export const meQuery = { queryKey: ['me'], queryFn: () => berth.me.get(), retry: false, staleTime: 60_000 } as const;

export function useMeQuery() {
  return useQuery(meQuery);
}

/** Where a signed-out visitor is sent: the sign-in page, coming back here afterwards. */
export function signInHref(location: string): string {
  return location === '/' ? '/sign-in' : `/sign-in?next=${encodeURIComponent(location)}`;
}

export function RequireSession({ children }: { children: ReactNode }) {
  const me = useMeQuery();
  const [location] = useLocation();
  const queryClient = useQueryClient();
  useEffect(
    () =>
      onSignedOut(() => {
        queryClient.clear();
        window.location.assign(signInHref(window.location.pathname + window.location.search));
      }),
    [queryClient],
  );
  if (me.isPending) return <Loading label="Loading your account" />;
  if (me.isError && isUnauthenticated(me.error)) return <Redirect to={signInHref(location)} />;
  if (me.isError) throw me.error;
  return <MeContext.Provider value={me.data}>{children}</MeContext.Provider>;
}

/** Whether the user's role grants `permission` (`*` grants all; `sites:*` every sites permission). */
export function can(me: Me, permission: string): boolean {
  return me.permissions.some((held) => held === '*' || held === permission || (held.endsWith(':*') && permission.startsWith(held.slice(0, -1))));
}
