/** The pagination block of every /v1 list answer. */
export type Pagination = { page: number; page_size: number; total: number; total_pages: number };

/** One page of a list: its items and where it stands (`?page=&page_size=`, at most 100 a page). */
export type Page<T> = { data: T[]; pagination: Pagination };
