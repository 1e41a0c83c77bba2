import { Session } from "@shopify/shopify-api";
import {
  PrismaSessionStorage,
  type PrismaSessionStorageInterface,
} from "@shopify/shopify-app-session-storage-prisma";
import type { SecretBox } from "../crypto/secret-box.server";
import type { AppPrismaClient } from "../db/client.server";
import { logger } from "../logger.server";
import {
  readSessionToken,
  resealSessionTokens,
  SESSION_TOKEN_FIELDS,
  sealSessionToken,
  type StoredSessionTokens,
} from "./Session.server";

const log = logger.child({ component: "session-storage" });

/**
 * Shopify's Prisma session storage with the access and refresh tokens sealed at rest (decision
 * 044): sealed on store, opened on load, so the library and the background work see clear tokens
 * and the table never holds one. A token still in clear (a row from before 044) is read as it is
 * and sealed in place. A token that does not open (its encryption key is gone) reads as no
 * session: the embedded admin's token exchange then stores a new one.
 */
export class SealedSessionStorage implements PrismaSessionStorageInterface {
  readonly #inner: PrismaSessionStorage<ConstructorParameters<typeof PrismaSessionStorage>[0]>;

  constructor(
    private readonly db: AppPrismaClient,
    private readonly box: SecretBox,
  ) {
    // The storage is typed against @prisma/client's default client; ours is the same API
    // generated to app/generated (decision 001), so only the nominal type differs.
    this.#inner = new PrismaSessionStorage(
      db as unknown as ConstructorParameters<typeof PrismaSessionStorage>[0],
    );
  }

  storeSession(session: Session): Promise<boolean> {
    return this.#inner.storeSession(this.#sealed(session));
  }

  async loadSession(id: string): Promise<Session | undefined> {
    const stored = await this.#inner.loadSession(id);
    return stored && this.#opened(stored);
  }

  async findSessionsByShop(shop: string): Promise<Session[]> {
    const opened = await Promise.all(
      (await this.#inner.findSessionsByShop(shop)).map((stored) => this.#opened(stored)),
    );
    return opened.filter((session): session is Session => session !== undefined);
  }

  deleteSession(id: string): Promise<boolean> {
    return this.#inner.deleteSession(id);
  }

  deleteSessions(ids: string[]): Promise<boolean> {
    return this.#inner.deleteSessions(ids);
  }

  isReady(): Promise<boolean> {
    return this.#inner.isReady();
  }

  /** A copy for the table: the caller's session keeps its clear tokens. */
  #sealed(session: Session): Session {
    return new Session({
      ...session.toObject(),
      accessToken: sealSessionToken(this.box, session.id, "accessToken", session.accessToken),
      refreshToken: sealSessionToken(this.box, session.id, "refreshToken", session.refreshToken),
    });
  }

  async #opened(stored: Session): Promise<Session | undefined> {
    const raw = {
      id: stored.id,
      shop: stored.shop,
      accessToken: stored.accessToken ?? "",
      refreshToken: stored.refreshToken ?? null,
    };
    let clear = false;
    for (const field of SESSION_TOKEN_FIELDS) {
      const value = readSessionToken(this.box, stored.id, field, stored[field]);
      if (value.status === "unreadable") {
        log.error(
          { shop: stored.shop, sessionId: stored.id, field, keyId: value.keyId },
          `The ${field} of session ${stored.id} cannot be opened (${value.reason}): read as no session. ` +
            `Restore encryption key ${value.keyId ?? "(unknown)"} in SVC_ENCRYPTION_KEYS_PREVIOUS, ` +
            `or have the merchant open the app, which stores a new token`,
        );
        return undefined;
      }
      if (value.status === "clear") clear = true;
      if (value.status === "clear" || value.status === "open") stored[field] = value.token;
    }
    if (clear) await this.#sealInPlace(raw);
    return stored;
  }

  async #sealInPlace(raw: StoredSessionTokens) {
    try {
      await resealSessionTokens(this.db, this.box, raw);
    } catch (error) {
      // The clear token still works; the start-up step or keys:reseal seals it later.
      log.warn(
        { shop: raw.shop, sessionId: raw.id, err: error },
        `Failed to seal the clear tokens of session ${raw.id}`,
      );
    }
  }
}
