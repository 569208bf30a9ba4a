import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { isNotFound } from './api/errors.ts';
import { preloadLinkedPages, preloadPage, routeAt } from './app/preload.ts';
import { queryClient } from './app/query-client.ts';
import { meQuery } from './app/session.tsx';
import './styles.css';

const root = createRoot(document.getElementById('root')!, {
  // a 404 caught by an error boundary is a page's answer ("not found"), not a fault to log
  onCaughtError: (error, info) => {
    if (!isNotFound(error)) console.error(error, info.componentStack);
  },
});

// The first page renders once its chunk is in: a page that suspends on its first render is revealed
// on React's 300 ms cadence, which cost the sign-in page 0.8 s here.
preloadLinkedPages();
// a page behind sign-in asks who is signed in at the same time as its chunk loads
if (routeAt(window.location.pathname)?.public !== true) void queryClient.prefetchQuery(meQuery);
void preloadPage(window.location.pathname).then(() =>
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
