import { BlockList, isIP, isIPv4 } from 'node:net'

/** Ranges a fetch from the model may not reach: this machine, private networks, link-local, reserved. */
const blocked = new BlockList()
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, bits, 'ipv4')
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(net, bits, 'ipv6')

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible or NAT64 IPv6 address. */
function embeddedIPv4(address: string): string | undefined {
  const groups = expandIPv6(address)
  if (!groups) return undefined
  const mapped = groups.slice(0, 5).every((g) => g === 0) && (groups[5] === 0xffff || groups[5] === 0)
  const nat64 = groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0)
  if (!mapped && !nat64) return undefined
  const [hi, lo] = [groups[6]!, groups[7]!]
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`
}

function expandIPv6(address: string): number[] | undefined {
  let text = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '')
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number]
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [left, right] = text.split('::') as [string, string | undefined]
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)))
  const head = parse(left)
  const tail = right === undefined ? [] : parse(right)
  const fill = right === undefined ? 0 : 8 - head.length - tail.length
  const groups = [...head, ...new Array<number>(Math.max(0, fill)).fill(0), ...tail]
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined
}

/** Whether an IP address is loopback, private, link-local or otherwise not on the public internet. */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '')
  if (isIPv4(bare)) return blocked.check(bare, 'ipv4')
  if (isIP(bare) !== 6) return true
  const inner = embeddedIPv4(bare)
  if (inner !== undefined) return blocked.check(inner, 'ipv4') || blocked.check(bare, 'ipv6')
  return blocked.check(bare, 'ipv6')
}

/** `allowHosts` entries: a host name (`api.example.com`), `*.example.com`, or an IP address. */
export function hostAllowed(host: string, allowHosts: readonly string[]): boolean {
  const name = host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
  return allowHosts.some((entry) => {
    const rule = entry.toLowerCase().replace(/^\[|\]$/g, '')
    return rule.startsWith('*.') ? name.endsWith(rule.slice(1)) : name === rule
  })
}
