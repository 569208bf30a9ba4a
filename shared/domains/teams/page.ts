import type { Knex } from 'knex';

/** One page of a list: `page` from 1, `pageSize` items. */
export type Page = { page: number; pageSize: number };

/** Limits an ordered query to the rows of one page. */
export function onePage<Query extends Knex.QueryBuilder>(query: Query, page: Page): Query {
  return query.limit(page.pageSize).offset((page.page - 1) * page.pageSize) as Query;
}

/** How many rows the query has (`column` names what to count, e.g. `m.id`). */
export async function countOf(query: Knex.QueryBuilder, column: string): Promise<number> {
  const rows = (await query.count({ count: column })) as Array<{ count: string | number }>;
  return Number(rows[0]?.count ?? 0);
}
