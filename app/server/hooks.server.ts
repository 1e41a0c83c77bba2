import prisma from "../db.server";
import { logger, type Logger } from "../logger.server";
import { stopEmbeddedOutboxWorker } from "../outbox/embedded.server";
import type { OrderTopic } from "../orders";
import { handleOrderWebhook, ORDER_WEBHOOK_PATHS } from "../webhooks/orders.server";

/**
 * What the production server (scripts/serve.ts) takes from the server build besides Remix's
 * request handler. Taken from the build, not imported from source, so that the server and
 * Remix share one Prisma client, one logger and one embedded worker.
 */
export interface ServerHooks {
  /** Order webhooks are answered before Express and Remix see them (decision 009). */
  orderWebhookPaths: ReadonlyMap<string, OrderTopic>;
  handleOrderWebhook: typeof handleOrderWebhook;
  logger: Logger;
  /** Stops the embedded outbox worker (it releases its claims) and closes the database. */
  stopBackgroundWork(): Promise<void>;
}

export const serverHooks: ServerHooks = {
  orderWebhookPaths: ORDER_WEBHOOK_PATHS,
  handleOrderWebhook,
  logger,
  async stopBackgroundWork() {
    await stopEmbeddedOutboxWorker();
    await prisma.$disconnect();
  },
};
