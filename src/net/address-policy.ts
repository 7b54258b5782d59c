/**
 * Which network addresses the service may connect to on a client's behalf. Only public unicast
 * addresses, unless the operator allows private ones or lists trusted ranges: a client must never
 * reach loopback, the private network, link-local (cloud metadata at 169.254.169.254) or any
 * other special-purpose range through us.
 */
import ipaddr from 'ipaddr.js';

export interface AddressPolicyOptions {
  allowPrivate: boolean;
  /** CIDR ranges always allowed, e.g. an internal upstream at 10.1.2.0/24. */
  allowCidrs: string[];
}

export type AddressPolicy = (address: string) => boolean;

export function addressPolicy(options: AddressPolicyOptions): AddressPolicy {
  const allowed = options.allowCidrs.map((cidr) => {
    try {
      return ipaddr.parseCIDR(cidr);
    } catch {
      throw new Error(`outbound.allow_cidrs: ${cidr} is not a CIDR range`);
    }
  });
  return (address) => {
    if (!ipaddr.isValid(address)) return false;
    let parsed = ipaddr.parse(address);
    // An IPv4 address written as IPv6 (::ffff:127.0.0.1) is judged as the IPv4 address it is.
    if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
      parsed = (parsed as ipaddr.IPv6).toIPv4Address();
    }
    if (options.allowPrivate) return true;
    if (allowed.some(([net, bits]) => net.kind() === parsed.kind() && parsed.match(net, bits))) return true;
    return parsed.range() === 'unicast';
  };
}
