// Who a client is, for the limits that count per client. An IPv4 address is one client. An IPv6
// client is its /56: a single phone is handed a whole /64 and can pick any of its 2^64
// addresses, and a home is delegated a /56 (RIPE-690 and most ISPs) and can pick any of its 256
// /64s, so counting addresses, or even /64s, would give one household endless budgets.
import { isIPv6 } from 'node:net'

/** The eight 16-bit groups of an IPv6 address, or null if it is not one. */
function ipv6Groups(address: string): number[] | null {
  if (!isIPv6(address)) return null
  const [head = '', tail] = address.split('::')
  const parse = (part: string): string[] => (part === '' ? [] : part.split(':'))
  // A trailing dotted IPv4 (::ffff:192.0.2.1) stands for the last two groups.
  const expandIpv4 = (groups: string[]): string[] => {
    const last = groups.at(-1) ?? ''
    if (!last.includes('.')) return groups
    const [a = 0, b = 0, c = 0, d = 0] = last.split('.').map(Number)
    return [...groups.slice(0, -1), ((a << 8) | b).toString(16), ((c << 8) | d).toString(16)]
  }
  const compressed = tail !== undefined
  const left = compressed ? parse(head) : expandIpv4(parse(head))
  const right = compressed ? expandIpv4(parse(tail)) : []
  const zeros = Array<string>(8 - left.length - right.length).fill('0')
  return [...left, ...zeros, ...right].map((group) => parseInt(group, 16))
}

/**
 * The key a client's budget is counted under: the IPv4 address itself (also when written as an
 * IPv4-mapped IPv6 address), or the /56 an IPv6 address belongs to.
 */
export function clientKey(address: string | undefined): string {
  if (address === undefined || address === '') return 'unknown'
  const plain = address.split('%')[0] ?? address // a zone index (fe80::1%eth0) names no client
  const groups = ipv6Groups(plain)
  if (groups === null) return plain
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff
  if (mapped) {
    const [high = 0, low = 0] = groups.slice(6)
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.')
  }
  const [a = 0, b = 0, c = 0, d = 0] = groups
  const prefix = [a, b, c, d & 0xff00].map((group) => group.toString(16))
  return `${prefix.join(':')}::/56`
}
