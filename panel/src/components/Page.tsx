import { useEffect, type ReactNode } from 'react';
import { Link } from 'wouter';

/** A page's frame: the title (also the document's), an optional way back, actions on the right. */
export function Page({ title, back, actions, children }: { title: string; back?: { href: string; label: string }; actions?: ReactNode; children: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · Berth`;
  }, [title]);
  return (
    <section className="page" aria-labelledby="page-title">
      {back ? (
        <Link href={back.href} className="back-link">
          ← {back.label}
        </Link>
      ) : null}
      <header className="page-header">
        <h1 id="page-title">{title}</h1>
        {actions ? <div className="page-actions">{actions}</div> : null}
      </header>
      {children}
    </section>
  );
}

export function Section({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  const id = `section-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <section className="card" aria-labelledby={id}>
      <header className="card-header">
        <h2 id={id}>{title}</h2>
        {actions ? <div className="page-actions">{actions}</div> : null}
      </header>
      {children}
    </section>
  );
}
