import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

/**
 * AES-256-GCM sealing for the protection service's secret keys at rest.
 *
 * Sealed form: `v1.<keyId>.<iv>.<tag>.<ciphertext>` (base64url parts). The key id says which
 * encryption key sealed the value, so any number of earlier keys can stay configured during a
 * rotation. The context (for example `shop.myshopify.com:sandbox`) is bound as additional
 * authenticated data, so a sealed key copied into another shop's or environment's column does
 * not open.
 */

const VERSION = "v1";
/** How every sealed value starts; a Shopify token or a service key never does. */
export const SEALED_PREFIX = `${VERSION}.`;
const IV_BYTES = 12;
// GCM accepts tags down to 4 bytes unless told otherwise; a short tag is a forgery aid.
const TAG_BYTES = 16;

export interface SecretBox {
  /** The id of the key that seals (the first configured key). */
  readonly currentKeyId: string;
  seal(plaintext: string, context: string): string;
  open(sealed: string, context: string): string;
  /** Which key sealed a value, from its form alone (nothing is opened); null if not v1. */
  keyIdOf(sealed: string): string | null;
}

export type SecretBoxFailure = "malformed" | "unknown_key" | "authentication";

export class SecretBoxError extends Error {
  override name = "SecretBoxError";
  constructor(
    message: string,
    readonly reason: SecretBoxFailure = "malformed",
    /** The key id the sealed value names, when it could be read. */
    readonly keyId: string | null = null,
  ) {
    super(message);
  }
}

export function keyIdOf(key: Buffer): string {
  return createHash("sha256").update(key).digest("base64url").slice(0, 8);
}

function partsOf(sealed: string) {
  const [version, keyId, iv, tag, ciphertext, ...rest] = sealed.split(".");
  if (version !== VERSION || !keyId || !iv || !tag || ciphertext === undefined || rest.length) {
    return null;
  }
  return { keyId, iv, tag, ciphertext };
}

/**
 * `keys[0]` seals; every key in the list can open, so keys can be rotated. The list may hold
 * any number of earlier keys, in any order after the first; a repeated key is harmless.
 */
export function createSecretBox(keys: Buffer[]): SecretBox {
  const [current] = keys;
  if (!current || keys.some((key) => key.length !== 32)) {
    throw new SecretBoxError("Secret box needs 32-byte keys");
  }
  const byId = new Map(keys.map((key) => [keyIdOf(key), key]));
  const currentId = keyIdOf(current);

  return {
    currentKeyId: currentId,

    seal(plaintext, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", current, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(context, "utf8"));
      const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      const parts = [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString("base64url"));
      return [VERSION, currentId, ...parts].join(".");
    },

    open(sealed, context) {
      const parts = partsOf(sealed);
      if (!parts) throw new SecretBoxError("Sealed secret is not in the v1 format", "malformed");
      const key = byId.get(parts.keyId);
      if (!key) {
        throw new SecretBoxError(
          `Sealed secret uses encryption key ${parts.keyId}, which is not configured`,
          "unknown_key",
          parts.keyId,
        );
      }
      const tag = Buffer.from(parts.tag, "base64url");
      if (tag.length !== TAG_BYTES) {
        throw new SecretBoxError(
          `Sealed secret has a ${tag.length}-byte authentication tag, not ${TAG_BYTES}`,
          "authentication",
          parts.keyId,
        );
      }
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(parts.iv, "base64url"), {
          authTagLength: TAG_BYTES,
        });
        decipher.setAAD(Buffer.from(context, "utf8"));
        decipher.setAuthTag(tag);
        return Buffer.concat([
          decipher.update(Buffer.from(parts.ciphertext, "base64url")),
          decipher.final(),
        ]).toString("utf8");
      } catch {
        throw new SecretBoxError(
          `Sealed secret failed authentication with encryption key ${parts.keyId} (wrong key or context)`,
          "authentication",
          parts.keyId,
        );
      }
    },

    keyIdOf(sealed) {
      return partsOf(sealed)?.keyId ?? null;
    },
  };
}

/** Whether a stored value is in the sealed form (whether or not it opens), rather than clear. */
export function isSealedForm(value: string): boolean {
  return value.startsWith(SEALED_PREFIX);
}

/** What a browser may see of a secret: its last four characters. */
export function lastFour(secret: string): string {
  return secret.slice(-4);
}
