import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { isNotFound } from './api/errors.ts';
import './styles.css';

createRoot(document.getElementById('root')!, {
  // a 404 caught by an error boundary is a page's answer ("not found"), not a fault to log
  onCaughtError: (error, info) => {
    if (!isNotFound(error)) console.error(error, info.componentStack);
  },
}).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
