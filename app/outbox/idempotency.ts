import { createHash } from "node:crypto";

/**
 * The `Idempotency-Key` of an outbox event: derived from the shop and the event's dedupe key
 * (one Shopify action), so every send of the event, by any worker, after any restart or a
 * manual retry, carries the same key, and no other event ever does.
 */
export function idempotencyKeyFor(shop: string, dedupeKey: string): string {
  return uuidFromName(`svc-outbox\n${shop}\n${dedupeKey}`);
}

/**
 * A key that is the same for the same name and differs for any other: UUID-shaped (RFC 9562
 * version 8, name-based) because that is what services usually expect of such a key.
 */
export function uuidFromName(name: string): string {
  const hex = createHash("sha256").update(name).digest("hex");
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return [
    hex.slice(0, 8),
    hex.slice(8, 12),
    `8${hex.slice(13, 16)}`,
    `${variant}${hex.slice(17, 20)}`,
    hex.slice(20, 32),
  ].join("-");
}
