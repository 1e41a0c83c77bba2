import { getSecretBox } from "../../app/crypto/secrets.server";
import type { AppPrismaClient } from "../../app/db/client.server";
import { readSessionToken, type SessionTokenField } from "../../app/models/Session.server";

/**
 * The shop's offline Session row with its tokens opened (decision 044: the table holds them
 * sealed), for tests that check what the install or a refresh stored. A clear token (a row a test
 * seeded) is answered as it is; one that does not open fails the test.
 */
export async function readOfflineSessionRow(db: AppPrismaClient, shop: string) {
  const row = await db.session.findUniqueOrThrow({ where: { id: `offline_${shop}` } });
  const open = (field: SessionTokenField) => {
    const value = readSessionToken(getSecretBox(), row.id, field, row[field]);
    if (value.status === "unreadable") throw new Error(`${field} of ${row.id}: ${value.reason}`);
    return value.status === "absent" ? row[field] : value.token;
  };
  return { ...row, accessToken: open("accessToken") ?? "", refreshToken: open("refreshToken") };
}
