import type { ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { Page } from '../../components/Page.tsx';

const tabs = [
  { href: '/billing', label: 'Plan & invoices' },
  { href: '/billing/profile', label: 'Billing details' },
  { href: '/billing/credit-notes', label: 'Credit notes' },
] as const;

/** The billing pages' frame: the title and the tabs between them. */
export function BillingFrame({ title, back, children }: { title: string; back?: { href: string; label: string }; children: ReactNode }) {
  const [location] = useLocation();
  return (
    <Page title={title} back={back}>
      <nav className="tabs" aria-label="Billing">
        {tabs.map((tab) => (
          <Link key={tab.href} href={tab.href} aria-current={location === tab.href ? 'page' : undefined}>
            {tab.label}
          </Link>
        ))}
      </nav>
      {children}
    </Page>
  );
}
