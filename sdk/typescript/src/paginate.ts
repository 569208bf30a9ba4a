import type { Page } from './page.ts';
import type { RequestOptions } from './request-options.ts';

/** A list method of the client: `berth.sites.list`, `berth.backups.list`, ... */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any list method, whatever its params
export type ListMethod = (params: any, options?: RequestOptions) => Promise<Page<unknown>>;

export type ListParams<F extends ListMethod> = Omit<NonNullable<Parameters<F>[0]>, 'page'>;
export type ListItem<F extends ListMethod> = Awaited<ReturnType<F>>['data'][number];
/** The params stay required where the list method requires them (a site id, an environment). */
export type PaginateArgs<F extends ListMethod> = undefined extends Parameters<F>[0] ? [params?: ListParams<F>] : [params: ListParams<F>];

/** The biggest page the API serves: fewest requests for a walk over everything. */
const LARGEST_PAGE = 100;

/** Every item of every page, fetched one page at a time as the loop asks for more. */
export async function* paginate<F extends ListMethod>(list: F, params?: ListParams<F>): AsyncGenerator<ListItem<F>, void, undefined> {
  const pageSize = (params as { page_size?: number } | undefined)?.page_size ?? LARGEST_PAGE;
  for (let page = 1; ; page++) {
    const answer = await list({ ...params, page, page_size: pageSize });
    yield* answer.data as ListItem<F>[];
    if (answer.data.length === 0 || page >= answer.pagination.total_pages) return;
  }
}
