import { QueryClientProvider } from '@tanstack/react-query';
import { Suspense } from 'react';
import { Route, Switch } from 'wouter';
import { Loading } from '../components/Loading.tsx';
import { ErrorBoundary } from './ErrorBoundary.tsx';
import { Layout } from './Layout.tsx';
import { NotFoundPage } from './NotFoundPage.tsx';
import { queryClient } from './query-client.ts';
import { routes } from './routes.ts';
import { RequireSession } from './session.tsx';

const publicRoutes = routes.filter((route) => route.public);
const sessionRoutes = routes.filter((route) => !route.public);

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <ErrorBoundary>
        <Suspense fallback={<Loading />}>
          <Switch>
            {publicRoutes.map((route) => (
              <Route key={route.path} path={route.path} component={route.page} />
            ))}
            <Route>
              <RequireSession>
                <Layout>
                  <ErrorBoundary>
                    <Suspense fallback={<Loading />}>
                      <Switch>
                        {sessionRoutes.map((route) => (
                          <Route key={route.path} path={route.path} component={route.page} />
                        ))}
                        <Route component={NotFoundPage} />
                      </Switch>
                    </Suspense>
                  </ErrorBoundary>
                </Layout>
              </RequireSession>
            </Route>
          </Switch>
        </Suspense>
      </ErrorBoundary>
    </QueryClientProvider>
  );
}
