/** The TXT record that proves control of `name`: at `_berth-verify.<name>`, `berth-verify=<token>`. */
export function verificationRecord(name: string, token: string): { name: string; type: 'TXT'; value: string } {
  return { name: `_berth-verify.${name}`, type: 'TXT', value: `berth-verify=${token}` };
}
