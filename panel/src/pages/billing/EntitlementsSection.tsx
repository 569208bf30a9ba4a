import { useQuery } from '@tanstack/react-query';
import { berth } from '../../api/berth.ts';
import { isNotFound } from '../../api/errors.ts';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Section } from '../../components/Page.tsx';
import { day } from './format.ts';
import { LimitsList } from './LimitsList.tsx';

/** What the team may use now (its plan and add-ons together); read-only, set by the plan. */
export function EntitlementsSection() {
  const entitlements = useQuery({ queryKey: ['entitlements'], queryFn: () => berth.entitlements.get(), retry: false });
  return (
    <Section title="Limits">
      {entitlements.isError && isNotFound(entitlements.error) ? <p className="empty">No limits yet: the team has no plan.</p> : null}
      {entitlements.isError && !isNotFound(entitlements.error) ? <ErrorNotice error={entitlements.error} /> : null}
      {entitlements.data ? (
        <>
          <p className="muted">
            Plan <strong>{entitlements.data.plan}</strong> with its add-ons, as of {day(entitlements.data.updated_at)}.
          </p>
          <LimitsList limits={entitlements.data} />
        </>
      ) : null}
    </Section>
  );
}
