import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  createSecretBox,
  isSealedForm,
  keyIdOf,
  lastFour,
  SecretBoxError,
} from "./secret-box.server";

const key = randomBytes(32);
const secret = "sk_live_51H8xQ2eZvKYlo2C9fX0";

describe("secret box", () => {
  it("seals to a form that holds no part of the secret and opens it again", () => {
    const box = createSecretBox([key]);
    const sealed = box.seal(secret, "shop.myshopify.com:production");
    expect(sealed).toMatch(/^v1\.[\w-]{8}\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain(secret.slice(0, 8));
    expect(box.open(sealed, "shop.myshopify.com:production")).toBe(secret);
  });

  it("tells a sealed value from a clear one by its form, and no Shopify token looks sealed", () => {
    expect(isSealedForm(createSecretBox([key]).seal(secret, "c"))).toBe(true);
    for (const clear of [secret, "shpat_0e58", "shprt_7a1c", "shpua_x.y.z.w", ""]) {
      expect(isSealedForm(clear)).toBe(false);
    }
  });

  it("uses a fresh IV each time", () => {
    const box = createSecretBox([key]);
    expect(box.seal(secret, "c")).not.toBe(box.seal(secret, "c"));
  });

  it("refuses another context, a tampered ciphertext and an unknown key", () => {
    const box = createSecretBox([key]);
    const sealed = box.seal(secret, "a.myshopify.com:sandbox");
    expect(() => box.open(sealed, "b.myshopify.com:sandbox")).toThrow(/failed authentication/);
    const parts = sealed.split(".");
    parts[4] = Buffer.from("tampered").toString("base64url");
    expect(() => box.open(parts.join("."), "a.myshopify.com:sandbox")).toThrow(
      /failed authentication/,
    );
    expect(() =>
      createSecretBox([randomBytes(32)]).open(sealed, "a.myshopify.com:sandbox"),
    ).toThrow(/not configured/);
    expect(() => box.open("plaintext-key", "a.myshopify.com:sandbox")).toThrow(
      /not in the v1 format/,
    );
  });

  it("opens secrets sealed with the previous key after a rotation", () => {
    const sealedBefore = createSecretBox([key]).seal(secret, "ctx");
    const rotated = createSecretBox([randomBytes(32), key]);
    expect(rotated.open(sealedBefore, "ctx")).toBe(secret);
  });

  it("opens what any of several earlier keys sealed, and seals with the current one only", () => {
    const [oldest, older, current] = [randomBytes(32), randomBytes(32), randomBytes(32)];
    const byOldest = createSecretBox([oldest]).seal(secret, "ctx");
    const byOlder = createSecretBox([older, oldest]).seal(secret, "ctx");
    const box = createSecretBox([current, older, oldest]);
    expect(box.open(byOldest, "ctx")).toBe(secret);
    expect(box.open(byOlder, "ctx")).toBe(secret);
    expect(box.currentKeyId).toBe(keyIdOf(current));
    expect(box.keyIdOf(byOldest)).toBe(keyIdOf(oldest));
    expect(box.keyIdOf(box.seal(secret, "ctx"))).toBe(keyIdOf(current));
    expect(box.keyIdOf("not sealed")).toBeNull();
    // Dropping a key that still sealed something: the error names the key, for the operator.
    const error = catchError(() => createSecretBox([current, older]).open(byOldest, "ctx"));
    expect(error).toMatchObject({ reason: "unknown_key", keyId: keyIdOf(oldest) });
    expect(error.message).toContain(keyIdOf(oldest));
  });

  it("opens a value sealed before key rotation support (the stored v1 format)", () => {
    // Sealed by the secret box as it was before decision 017, with the key 0x2a × 32.
    const stored =
      "v1.VE5izugD.BSB2KQOFEk7lGfRG.Z_lK5bh0IGmMKARahJX0fQ.gY7eCP6GQmy3Q0lyrrCTuQmCiUEoYrw_Tg";
    const legacyKey = Buffer.alloc(32, 0x2a);
    const box = createSecretBox([randomBytes(32), legacyKey]);
    expect(box.open(stored, "legacy.myshopify.com:sandbox")).toBe("sk_test_legacy_value_7Qx2");
    expect(box.keyIdOf(stored)).toBe(keyIdOf(legacyKey));
  });

  it("pins the GCM tag to 16 bytes: a truncated or lengthened tag is refused", () => {
    const box = createSecretBox([key]);
    const sealed = box.seal(secret, "ctx");
    const parts = sealed.split(".");
    const tag = Buffer.from(parts[3]!, "base64url");
    expect(tag).toHaveLength(16);
    // A prefix of the right tag: GCM would accept it unless the tag length is pinned.
    for (const length of [4, 8, 12, 15]) {
      const truncated = [...parts];
      truncated[3] = tag.subarray(0, length).toString("base64url");
      const error = catchError(() => box.open(truncated.join("."), "ctx"));
      expect(error).toMatchObject({ reason: "authentication" });
      expect(error.message).toMatch(new RegExp(`${length}-byte authentication tag, not 16`));
    }
    const lengthened = [...parts];
    lengthened[3] = Buffer.concat([tag, Buffer.from([0])]).toString("base64url");
    expect(() => box.open(lengthened.join("."), "ctx")).toThrow(/17-byte authentication tag/);
  });

  it("shows only the last four characters", () => {
    expect(lastFour(secret)).toBe("9fX0");
  });
});

function catchError(run: () => unknown): SecretBoxError {
  try {
    run();
  } catch (error) {
    if (error instanceof SecretBoxError) return error;
    throw error;
  }
  throw new Error("Expected a SecretBoxError");
}
