import { isIPv4, isIPv6 } from "node:net";

/*
 * Who sent a request, for rate limits (decision 043). X-Forwarded-For is a list anyone can start:
 * each proxy appends the address it was connected from, so only the entries our own proxies
 * appended are true, counted from the right. With no proxy of ours (0), the socket's address is
 * the client's; with N, it is the Nth entry from the right (as Express's `trust proxy` = N).
 */

export interface ClientAddressInput {
  /** The X-Forwarded-For header as received, or null. */
  forwardedFor: string | null;
  /** The TCP peer's address as the server saw it; undefined where no server names it (Vite). */
  socketAddress: string | undefined;
  /** How many proxies of our own stand between the client and the app (hops to trust). */
  trustedProxies: number;
  /**
   * Only the entry exactly that many hops away names the client: with fewer entries, nobody is
   * named (undefined) instead of the furthest hop, which is then one of the proxies.
   */
  exact?: boolean;
}

/** A forwarded entry longer than any address is not an address: it is cut to this. */
const MAX_ENTRY_LENGTH = 64;

/**
 * The client's address as a rate limit key: the address `trustedProxies` hops away, or (unless
 * `exact`) the furthest one known when the header has fewer entries. IPv6 addresses count by
 * their /64, which one host gets whole. Undefined when nothing names an address.
 */
export function clientAddressOf(input: ClientAddressInput): string | undefined {
  const forwarded = (input.forwardedFor ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  // Nearest first: the socket, then what the proxies appended, right to left.
  const hops = [input.socketAddress, ...forwarded.reverse()];
  const wanted = Math.max(0, Math.floor(input.trustedProxies));
  if (input.exact && wanted >= hops.length) return undefined;
  const address = hops[Math.min(wanted, hops.length - 1)];
  return address ? keyOfAddress(address) : undefined;
}

/** The socket's address that server/serve.ts puts into Remix's load context, if any. */
export function socketAddressOf(context: unknown): string | undefined {
  const address = (context as { socketAddress?: unknown } | null | undefined)?.socketAddress;
  return typeof address === "string" && address !== "" ? address : undefined;
}

/** One key per client: IPv4 as it is (also IPv4-mapped IPv6), IPv6 by its /64 network. */
export function keyOfAddress(raw: string): string {
  const address = stripPort(raw.slice(0, MAX_ENTRY_LENGTH));
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return address;
  const groups = ipv6Groups(address);
  if (groups.slice(0, 6).join(":") === "0:0:0:0:0:ffff") {
    const [high, low] = groups.slice(6).map((group) => parseInt(group, 16));
    return [high! >> 8, high! & 255, low! >> 8, low! & 255].join(".");
  }
  return `${groups.slice(0, 4).join(":")}::/64`;
}

/** `[2001:db8::1]:443` and `192.0.2.1:443` (some proxies append the port) without the port. */
function stripPort(address: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address)?.[1];
  if (bracketed) return bracketed;
  const v4 = /^(\d+\.\d+\.\d+\.\d+):\d+$/.exec(address)?.[1];
  return v4 ?? address;
}

/** The eight groups of an IPv6 address, each without leading zeros, `::` expanded. */
function ipv6Groups(address: string): string[] {
  const withoutZone = address.split("%")[0]!.toLowerCase();
  const [head = "", tail] = withoutZone.split("::");
  const groupsOf = (part: string) => (part === "" ? [] : part.split(":"));
  let left = groupsOf(head);
  let right = tail === undefined ? [] : groupsOf(tail);
  // An embedded IPv4 tail (::1.2.3.4) is two groups.
  const expand = (groups: string[]) =>
    groups.flatMap((group) => {
      if (!group.includes(".")) return [group];
      const [a = 0, b = 0, c = 0, d = 0] = group.split(".").map(Number);
      return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
    });
  left = expand(left);
  right = expand(right);
  const zeros = Array.from({ length: 8 - left.length - right.length }, () => "0");
  return [...left, ...(tail === undefined ? [] : zeros), ...right].map((group) =>
    (parseInt(group, 16) || 0).toString(16),
  );
}
