import { describe, expect, it } from 'vitest';
import { isPubliclyRoutableAddress } from '../../src/validation/email/address-guard.js';

describe('SSRF guard', () => {
  it.each([
    '127.0.0.1', '127.255.255.254', '10.0.0.1', '172.16.5.4', '172.31.255.255', '192.168.1.1', '169.254.169.254',
    '100.64.0.1', '100.127.255.255', '0.0.0.0', '224.0.0.1', '239.255.255.250', '240.0.0.1', '255.255.255.255',
    '192.0.2.10', '198.51.100.7', '203.0.113.9', '198.18.0.1', '192.0.0.8',
    '::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1', 'ff02::1', '2001:db8::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1',
    '::ffff:7f00:1', '64:ff9b::a00:1', '2002:a00:1::1', '2002:7f00:1::', 'fec0::1', '100::1', '2001::1', 'not-an-ip',
  ])('When the mail host resolves to %s, then the probe may not connect', (address) => {
    expect(isPubliclyRoutableAddress(address)).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2a00:1450:4001:80b::201a', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808'])(
    'When the mail host resolves to %s, then the probe may connect',
    (address) => {
      expect(isPubliclyRoutableAddress(address)).toBe(true);
    },
  );
});
