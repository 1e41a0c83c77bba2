-- Exactly once under faults (decision 018): per-environment key pauses, the time delivery last
-- resumed, a log of every send, and money in 64-bit minor units.
ALTER TABLE "ShopConnection" ADD COLUMN "sandboxKeyRejectedAt" TIMESTAMP(3),
    ADD COLUMN "liveKeyRejectedAt" TIMESTAMP(3),
    ADD COLUMN "deliveryResumedAt" TIMESTAMP(3);
-- A shop paused before this migration stays paused, for the environment it worked in.
UPDATE "ShopConnection" SET "liveKeyRejectedAt" = "updatedAt"
  WHERE "status" = 'key_rejected' AND "environment" = 'production';
UPDATE "ShopConnection" SET "sandboxKeyRejectedAt" = "updatedAt"
  WHERE "status" = 'key_rejected' AND "environment" <> 'production';

CREATE TABLE "OutboxAttempt" (
    "id" SERIAL NOT NULL,
    "eventId" INTEGER NOT NULL,
    "shop" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "environment" TEXT NOT NULL,
    "workerId" TEXT NOT NULL,
    "idempotencyKey" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "finishedAt" TIMESTAMP(3) NOT NULL,
    "outcome" TEXT NOT NULL,
    "httpStatus" INTEGER,
    "detail" TEXT,

    CONSTRAINT "OutboxAttempt_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "OutboxAttempt_eventId_attempt_idx" ON "OutboxAttempt"("eventId", "attempt");
CREATE INDEX "OutboxAttempt_shop_startedAt_idx" ON "OutboxAttempt"("shop", "startedAt");

ALTER TABLE "ProtectionItem" ALTER COLUMN "priceAmount" SET DATA TYPE BIGINT;
ALTER TABLE "OrderSummary" ALTER COLUMN "planRevenue" SET DATA TYPE BIGINT;
