import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

/**
 * AES-256-GCM sealing for the protection service's secret keys at rest.
 *
 * Sealed form: `v1.<keyId>.<iv>.<tag>.<ciphertext>` (base64url parts). The context
 * (for example `shop.myshopify.com:sandbox`) is bound as additional authenticated data,
 * so a sealed key copied into another shop's or environment's column does not open.
 */

const VERSION = "v1";
const IV_BYTES = 12;

export interface SecretBox {
  seal(plaintext: string, context: string): string;
  open(sealed: string, context: string): string;
}

export class SecretBoxError extends Error {
  override name = "SecretBoxError";
}

export function keyIdOf(key: Buffer): string {
  return createHash("sha256").update(key).digest("base64url").slice(0, 8);
}

/** `keys[0]` seals; every key in the list can open, so keys can be rotated. */
export function createSecretBox(keys: Buffer[]): SecretBox {
  const [current] = keys;
  if (!current || keys.some((key) => key.length !== 32)) {
    throw new SecretBoxError("Secret box needs 32-byte keys");
  }
  const byId = new Map(keys.map((key) => [keyIdOf(key), key]));
  const currentId = keyIdOf(current);

  return {
    seal(plaintext, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", current, iv);
      cipher.setAAD(Buffer.from(context, "utf8"));
      const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      const parts = [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString("base64url"));
      return [VERSION, currentId, ...parts].join(".");
    },

    open(sealed, context) {
      const [version, keyId, iv, tag, ciphertext, ...rest] = sealed.split(".");
      if (version !== VERSION || !keyId || !iv || !tag || ciphertext === undefined || rest.length) {
        throw new SecretBoxError("Sealed secret is not in the v1 format");
      }
      const key = byId.get(keyId);
      if (!key) {
        throw new SecretBoxError(
          `Sealed secret uses encryption key ${keyId}, which is not configured`,
        );
      }
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
        decipher.setAAD(Buffer.from(context, "utf8"));
        decipher.setAuthTag(Buffer.from(tag, "base64url"));
        return Buffer.concat([
          decipher.update(Buffer.from(ciphertext, "base64url")),
          decipher.final(),
        ]).toString("utf8");
      } catch {
        throw new SecretBoxError("Sealed secret failed authentication (wrong key or context)");
      }
    },
  };
}

/** What a browser may see of a secret: its last four characters. */
export function lastFour(secret: string): string {
  return secret.slice(-4);
}
