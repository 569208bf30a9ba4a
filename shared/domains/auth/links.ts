/**
 * Links in e-mails point at the panel's pages under PUBLIC_URL (never at a request's Host header);
 * the page reads the token from the URL and POSTs it to the API. Opening a link changes nothing.
 */
export function panelLink(publicUrl: string, page: 'verify-email' | 'reset-password' | 'accept-invite', token: string): string {
  const url = new URL(`/${page}`, publicUrl);
  url.searchParams.set('token', token);
  return url.toString();
}
