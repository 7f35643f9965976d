/**
 * SSRF guard: the probe connects only to publicly routable unicast addresses. Everything the IANA special-purpose
 * registries set aside (RFC 6890 and its updates) is refused: loopback, private (RFC 1918, RFC 4193), link-local,
 * shared CGNAT space (RFC 6598), multicast, documentation, benchmarking and reserved ranges, in IPv4 and IPv6, and
 * IPv6 forms that carry one of those IPv4 addresses inside (mapped, NAT64, 6to4).
 */
import net from 'node:net';

/** IANA IPv4 Special-Purpose Address Registry, plus multicast (RFC 5771) and the reserved 240/4 (RFC 1112). */
export const NON_PUBLIC_IPV4_RANGES = [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15],
  ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const;

/** IANA IPv6 Special-Purpose Address Registry, plus multicast (RFC 4291 §2.7) and site-local (RFC 3879). */
export const NON_PUBLIC_IPV6_RANGES = [
  ['::', 8], ['64:ff9b:1::', 48], ['100::', 64], ['2001::', 23], ['2001:db8::', 32], ['3fff::', 20], ['5f00::', 16],
  ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const;

// Two lists: node's BlockList lets IPv6 rules match IPv4 addresses through ::ffff:0:0/96, and ::/8 covers that.
const nonPublicV4 = new net.BlockList();
for (const [prefix, bits] of NON_PUBLIC_IPV4_RANGES) nonPublicV4.addSubnet(prefix, bits, 'ipv4');
const nonPublicV6 = new net.BlockList();
for (const [prefix, bits] of NON_PUBLIC_IPV6_RANGES) nonPublicV6.addSubnet(prefix, bits, 'ipv6');

export function isPubliclyRoutableAddress(address: string): boolean {
  if (net.isIPv4(address)) return !nonPublicV4.check(address, 'ipv4');
  if (!net.isIPv6(address)) return false;
  const embedded = embeddedIpv4(address);
  if (embedded !== null) return isPubliclyRoutableAddress(embedded);
  return !nonPublicV6.check(address, 'ipv6');
}

/** The IPv4 address inside ::ffff:0:0/96 (RFC 4291 §2.5.5.2), 64:ff9b::/96 (RFC 6052) or 2002::/16 (RFC 3056). */
function embeddedIpv4(address: string): string | null {
  const words = expandIpv6(address);
  const isMapped = words.slice(0, 5).every((w) => w === 0) && words[5] === 0xffff;
  const isNat64 = words[0] === 0x64 && words[1] === 0xff9b && words.slice(2, 6).every((w) => w === 0);
  if (isMapped || isNat64) return wordsToIpv4(words[6], words[7]);
  if (words[0] === 0x2002) return wordsToIpv4(words[1], words[2]);
  return null;
}

function wordsToIpv4(high: number, low: number): string {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

function expandIpv6(address: string): number[] {
  let text = address.split('%')[0];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1].split('.').map(Number);
    text = text.slice(0, -dotted[1].length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, null];
  const headWords = head ? head.split(':') : [];
  const tailWords = tail ? tail.split(':') : [];
  const zeros = tail === null ? [] : Array(8 - headWords.length - tailWords.length).fill('0');
  return [...headWords, ...zeros, ...tailWords].map((w) => parseInt(w, 16));
}
