import { QueryClient } from '@tanstack/react-query';
import { BerthError } from '@berth/sdk';

/**
 * One cache for the whole panel. The SDK already retries network errors, 429 and 5xx, so queries do
 * not retry again; a 4xx is an answer, never retried. Lists stay fresh through the team's event
 * stream (app/live-updates.ts), not through polling.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (count, error) => !(error instanceof BerthError) && count < 1,
      staleTime: 15_000,
      refetchOnWindowFocus: true,
    },
    mutations: { retry: false },
  },
});
