import { describe, expect, it } from 'vitest';
import { metadataRuleset, metadataTableName, subnetsOf } from '../../agent/runtime/metadata-block.ts';

describe('the cloud metadata block script', () => {
  it('names one table per network, in nft identifier characters', () => {
    expect(metadataTableName('berth-0123456789ab')).toBe('berth_metadata_berth_0123456789ab');
    expect(metadataTableName('a.b-c')).toBe('berth_metadata_a_b_c');
  });

  it("splits the engine's subnets by family", () => {
    expect(subnetsOf({ IPAM: { Driver: 'default', Config: [{ Subnet: '10.89.0.0/24', Gateway: '10.89.0.1' }, { Subnet: 'fd10::/64' }] } })).toEqual({
      ipv4: ['10.89.0.0/24'],
      ipv6: ['fd10::/64'],
    });
    expect(subnetsOf({ IPAM: { Driver: 'default', Config: [] } })).toEqual({ ipv4: [], ipv6: [] });
  });

  it('replaces the table in one transaction: forward rejects the metadata addresses from anywhere, input only from the network', () => {
    const { script, marker, ruleCount } = metadataRuleset('berth_metadata_n', { ipv4: ['10.89.0.0/24'], ipv6: [] });
    const lines = script.split('\n');
    expect(lines.slice(0, 3)).toEqual(['table inet berth_metadata_n {}', 'delete table inet berth_metadata_n', 'table inet berth_metadata_n {']);
    expect(script).toContain('type filter hook forward priority filter - 10; policy accept;');
    expect(script).toContain('type filter hook input priority filter - 10; policy accept;');
    const rules = lines.filter((line) => line.includes('reject')).map((line) => line.trim().replace(/ counter reject.*$/, ''));
    expect(rules).toEqual([
      'ip daddr 169.254.0.0/16',
      'ct original ip daddr 169.254.0.0/16',
      'ip6 daddr fd00:ec2::254',
      'ct original ip6 daddr fd00:ec2::254',
      'ip saddr { 10.89.0.0/24 } ip daddr 169.254.0.0/16',
      'ip saddr { 10.89.0.0/24 } ct original ip daddr 169.254.0.0/16',
    ]);
    expect(ruleCount).toBe(6);
    expect(script.split(`comment "${marker}"`).length - 1).toBe(6);
  });

  it('marks a different rule set with a different comment, so a stale table is replaced', () => {
    const one = metadataRuleset('t', { ipv4: ['10.89.0.0/24'], ipv6: [] });
    const two = metadataRuleset('t', { ipv4: ['10.89.1.0/24'], ipv6: ['fd10::/64'] });
    expect(one.marker).not.toBe(two.marker);
    expect(two.ruleCount).toBe(8);
  });
});
