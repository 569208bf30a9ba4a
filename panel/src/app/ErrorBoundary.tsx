import { Component, type ReactNode } from 'react';
import { isNotFound } from '../api/errors.ts';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import { NotFoundPage } from './NotFoundPage.tsx';

/** A page that failed to load says why (a 404 is "not found": another team's URL looks the same). */
export class ErrorBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override render() {
    if (this.state.error === null) return this.props.children;
    if (isNotFound(this.state.error)) return <NotFoundPage />;
    return (
      <section className="page">
        <h1>Something went wrong</h1>
        <ErrorNotice error={this.state.error} />
        <button type="button" className="button" onClick={() => this.setState({ error: null })}>
          Try again
        </button>
      </section>
    );
  }
}
