/** The panel pages behind the login-risk e-mails' links; like every e-mailed link, opening one changes nothing. */
export type RiskPage = 'login/approve' | 'login/deny' | 'concurrent-login';

/** A link under PUBLIC_URL (never a request's Host header) to a panel page that POSTs the token. */
export function riskLink(publicUrl: string, page: RiskPage, token: string): string {
  const url = new URL(`/${page}`, publicUrl);
  url.searchParams.set('token', token);
  return url.toString();
}
