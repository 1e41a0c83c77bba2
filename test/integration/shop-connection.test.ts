import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { sqliteFilePath } from "../../app/lib/database-url";
import prisma from "../../app/db.server";
import { getSecretBox } from "../../app/crypto/secrets.server";
import {
  getShopConnection,
  openSecretKey,
  recordInstallation,
  saveConnectionKeys,
  toPublicConnection,
} from "../../app/models/ShopConnection.server";
import { testDatabaseProvider } from "../support/databases";

const provider = testDatabaseProvider();
const SANDBOX_KEY = "sk_test_4eC39HqLyjWDarjtT1zdp7dc";
const LIVE_KEY = "sk_live_9Zx81QmRt5UvWbNc3Kd0pA7f";

/** Everything the database holds, as its own dump tool (or file) writes it. */
function databaseDump(): string {
  const url = process.env.DATABASE_URL!;
  if (provider === "postgresql") {
    return execFileSync("pg_dump", ["--dbname", url, "--data-only", "--inserts"], {
      encoding: "utf8",
    });
  }
  const file = sqliteFilePath(url);
  const raw = [file, `${file}-wal`]
    .filter(existsSync)
    .map((f) => readFileSync(f).toString("latin1"));
  const dump = execFileSync("sqlite3", [file, ".dump"], { encoding: "utf8" });
  return [...raw, dump].join("\n");
}

describe(`shop connection settings on ${provider}`, () => {
  it("creates one record per shop at install, with sandbox, v2.0 and not connected", async () => {
    await recordInstallation(prisma, "install.myshopify.com", "read_orders");
    await recordInstallation(prisma, "install.myshopify.com", "read_orders,write_orders");
    const records = await prisma.shopConnection.findMany({
      where: { shop: "install.myshopify.com" },
    });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      environment: "sandbox",
      apiVersion: "v2.0",
      status: "not_connected",
      grantedScopes: "read_orders,write_orders",
    });
  });

  it("seals secret keys so no database dump contains them, and shows only their last four", async () => {
    const shop = "sealed.myshopify.com";
    await saveConnectionKeys(prisma, getSecretBox(), shop, {
      sandboxSecretKey: SANDBOX_KEY,
      liveSecretKey: LIVE_KEY,
      sandboxPublishableKey: "pk_test_abc",
      apiVersion: "v1.1",
    });

    const dump = databaseDump();
    expect(dump).toContain("sealed.myshopify.com");
    expect(dump).toContain("pk_test_abc");
    expect(dump).not.toContain(SANDBOX_KEY);
    expect(dump).not.toContain(LIVE_KEY);
    expect(dump).not.toContain(SANDBOX_KEY.slice(0, 12));

    const record = (await getShopConnection(prisma, shop))!;
    const visible = toPublicConnection(record);
    expect(JSON.stringify(visible)).not.toContain(SANDBOX_KEY.slice(0, -4));
    expect(visible).toMatchObject({
      sandboxSecretKeyLast4: "p7dc",
      liveSecretKeyLast4: "pA7f",
      apiVersion: "v1.1",
      status: "connected",
    });
    expect(openSecretKey(getSecretBox(), record, "sandbox")).toBe(SANDBOX_KEY);
    expect(openSecretKey(getSecretBox(), record, "production")).toBe(LIVE_KEY);
  });

  it("does not open a sealed key moved to another shop's record", async () => {
    await saveConnectionKeys(prisma, getSecretBox(), "victim.myshopify.com", {
      sandboxSecretKey: SANDBOX_KEY,
    });
    await recordInstallation(prisma, "thief.myshopify.com", null);
    const victim = (await getShopConnection(prisma, "victim.myshopify.com"))!;
    const thief = await prisma.shopConnection.update({
      where: { shop: "thief.myshopify.com" },
      data: { sandboxSecretKeySealed: victim.sandboxSecretKeySealed },
    });
    expect(() => openSecretKey(getSecretBox(), thief, "sandbox")).toThrow(/failed authentication/);
  });

  it("ends a key-rejected pause when a new key is saved", async () => {
    const shop = "rejected.myshopify.com";
    await saveConnectionKeys(prisma, getSecretBox(), shop, { sandboxSecretKey: SANDBOX_KEY });
    await prisma.shopConnection.update({ where: { shop }, data: { status: "key_rejected" } });
    await saveConnectionKeys(prisma, getSecretBox(), shop, { environment: "sandbox" });
    expect((await getShopConnection(prisma, shop))?.status).toBe("key_rejected");
    await saveConnectionKeys(prisma, getSecretBox(), shop, {
      sandboxSecretKey: "sk_test_new_key_0001",
    });
    expect((await getShopConnection(prisma, shop))?.status).toBe("connected");
  });
});
