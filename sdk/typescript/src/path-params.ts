/**
 * Path parameters travel as URL text, so an id the document types as a plain `string` may also be
 * given as a number (`berth.sites.get({ id: site.id })`). Enumerated strings stay as documented.
 */
export type PathParams<T> = { [K in keyof T]: string extends T[K] ? T[K] | number : T[K] };
