import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { berth } from '../api/berth.ts';
import { LiveUpdates } from '../live/LiveUpdates.tsx';
import { nav } from './routes.ts';
import { useMe } from './session.tsx';

const sections = [
  { key: 'team', label: 'Team' },
  { key: 'account', label: 'Account' },
  { key: 'operator', label: 'Operator' },
] as const;

/** The signed-in frame: a skip link, the navigation (a menu button below 720 px), the team, sign-out. */
export function Layout({ children }: { children: ReactNode }) {
  const me = useMe();
  const [location, navigate] = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const queryClient = useQueryClient();
  const signOut = useMutation({
    mutationFn: () => berth.browserAuth.logout(),
    onSettled: () => {
      queryClient.clear();
      navigate('/sign-in');
    },
  });
  const items = nav.filter((item) => !item.operator || me.operator);
  // one current item: the longest href the location starts with (/account/security is Security, not Profile)
  const current = items
    .filter((item) => (item.href === '/' ? location === '/' || location.startsWith('/sites') : location === item.href || location.startsWith(`${item.href}/`)))
    .sort((a, b) => b.href.length - a.href.length)[0]?.href;
  return (
    <div className="shell">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <LiveUpdates />
      <header className="topbar">
        <Link href="/" className="brand">
          Berth
        </Link>
        <span className="team-name" title="Your team">
          {me.team_name}
        </span>
        <button type="button" className="button menu-button" aria-expanded={menuOpen} aria-controls="main-nav" onClick={() => setMenuOpen(!menuOpen)}>
          Menu
        </button>
      </header>
      <nav id="main-nav" className={menuOpen ? 'sidebar open' : 'sidebar'} aria-label="Main">
        {sections.map((section) => {
          const sectionItems = items.filter((item) => item.section === section.key);
          if (sectionItems.length === 0) return null;
          return (
            <div key={section.key} className="nav-section">
              <h2 className="nav-heading">{section.label}</h2>
              <ul>
                {sectionItems.map((item) => {
                  return (
                    <li key={item.href}>
                      <Link href={item.href} aria-current={item.href === current ? 'page' : undefined} onClick={() => setMenuOpen(false)}>
                        {item.label}
                      </Link>
                    </li>
                  );
                })}
              </ul>
            </div>
          );
        })}
        <div className="nav-section nav-user">
          <p>
            {me.user_name}
            <br />
            <small>{me.email}</small>
          </p>
          <button type="button" className="button" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
            Sign out
          </button>
        </div>
      </nav>
      <main id="main" className="content" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
