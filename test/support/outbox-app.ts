import { afterAll, beforeAll } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/server";
import { EmulatorClient, LIVE_KEY, SANDBOX_KEY } from "../../emulator/test-support";
import type * as SecretsModule from "../../app/crypto/secrets.server";
import type { AppPrismaClient } from "../../app/db/client.server";
import type * as OutboxModelModule from "../../app/models/OutboxEvent.server";
import type * as ConnectionsModule from "../../app/models/ShopConnection.server";
import type * as ClaimModule from "../../app/outbox/claim.server";
import type * as WorkerModule from "../../app/outbox/worker.server";
import type * as WebhooksModule from "./order-webhooks";
import { connectShop } from "./shops";

export interface OutboxApp {
  emulator: RunningEmulator;
  control: EmulatorClient;
  prisma: AppPrismaClient;
  connections: typeof ConnectionsModule;
  outbox: typeof OutboxModelModule;
  claim: typeof ClaimModule;
  worker: typeof WorkerModule;
  webhooks: typeof WebhooksModule;
  box: typeof SecretsModule;
  /** Stops the emulator and starts a new one on the same port: the service down, then up. */
  restartEmulator(stopped: () => Promise<void>): Promise<void>;
  /**
   * A clean start for a test: the emulator reset, no order events, attempts, receipts,
   * summaries or connections, and `shop` connected with the default settings.
   */
  startClean(shop: string): Promise<void>;
}

/**
 * The app's order-event path for one test file: an emulator, SVC_BASE_URL pointing at it, and
 * the app modules imported after that (they read the configuration on first use).
 */
export function withOutboxApp(): OutboxApp {
  const app = {} as OutboxApp;
  beforeAll(async () => {
    app.emulator = await startEmulator({ sandboxKey: SANDBOX_KEY, liveKey: LIVE_KEY, port: 0 });
    app.control = new EmulatorClient(app.emulator);
    process.env.SVC_BASE_URL = app.emulator.url;
    process.env.SVC_REQUEST_TIMEOUT_MS = "2000";
    app.prisma = (await import("../../app/db.server")).default;
    app.connections = await import("../../app/models/ShopConnection.server");
    app.outbox = await import("../../app/models/OutboxEvent.server");
    app.claim = await import("../../app/outbox/claim.server");
    app.worker = await import("../../app/outbox/worker.server");
    app.webhooks = await import("./order-webhooks");
    app.box = await import("../../app/crypto/secrets.server");
    app.restartEmulator = async (whileDown) => {
      const port = Number(new URL(app.emulator.url).port);
      await app.emulator.close();
      await whileDown();
      app.emulator = await startEmulator({ sandboxKey: SANDBOX_KEY, liveKey: LIVE_KEY, port });
      app.control.attach(app.emulator);
    };
    app.startClean = async (shop) => {
      await app.control.reset();
      await app.prisma.outboxAttempt.deleteMany({});
      await app.prisma.outboxEvent.deleteMany({});
      await app.prisma.webhookReceipt.deleteMany({});
      await app.prisma.orderSummary.deleteMany({});
      await app.prisma.shopConnection.deleteMany({});
      await connectShop(app.prisma, shop);
    };
  });
  afterAll(async () => {
    await app.emulator.close();
  });
  return app;
}
