import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createSecretBox, lastFour } from "../../app/crypto/secret-box.server";

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

  it("shows only the last four characters", () => {
    expect(lastFour(secret)).toBe("9fX0");
  });
});
