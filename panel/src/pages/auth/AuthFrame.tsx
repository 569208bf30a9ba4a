import { useEffect, type ReactNode } from 'react';
import { Link } from 'wouter';

/** The frame of the signed-out pages: the name, one card, links between them. */
export function AuthFrame({ title, children, footer }: { title: string; children: ReactNode; footer?: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · Berth`;
  }, [title]);
  return (
    <main id="main" className="auth-page">
      <div className="auth-card">
        <Link href="/" className="brand">
          Berth
        </Link>
        <h1>{title}</h1>
        {children}
      </div>
      {footer ? (
        <nav className="auth-footer" aria-label="Other pages">
          {footer}
        </nav>
      ) : null}
    </main>
  );
}

/** The `token` of a link Berth e-mailed (?token=...). */
export function tokenFromUrl(): string {
  return new URLSearchParams(window.location.search).get('token') ?? '';
}
