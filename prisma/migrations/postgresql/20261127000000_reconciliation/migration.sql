-- Reconciliation and backfill (issue 17): events recovered from the Admin API are marked, and
-- each shop keeps its watermark, schedule, lease and backfill; each run is recorded.
-- AlterTable
ALTER TABLE "OutboxEvent" ADD COLUMN     "recoveredBy" TEXT;

-- CreateTable
CREATE TABLE "ReconcileState" (
    "shop" TEXT NOT NULL,
    "reportFrom" TIMESTAMP(3) NOT NULL,
    "watermark" TIMESTAMP(3) NOT NULL,
    "nextRunAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "requestedAt" TIMESTAMP(3),
    "deferredOrders" TEXT NOT NULL DEFAULT '[]',
    "recoveringRunsInARow" INTEGER NOT NULL DEFAULT 0,
    "leaseOwner" TEXT,
    "leaseExpiresAt" TIMESTAMP(3),
    "lastRunId" TEXT,
    "backfillStatus" TEXT,
    "backfillSince" TIMESTAMP(3),
    "backfillOperationId" TEXT,
    "backfillOrdersDone" INTEGER NOT NULL DEFAULT 0,
    "backfillToRead" TEXT NOT NULL DEFAULT '[]',
    "backfillOrdersTotal" INTEGER,
    "backfillEventsRecovered" INTEGER NOT NULL DEFAULT 0,
    "backfillDetail" TEXT,
    "backfillStartedAt" TIMESTAMP(3),
    "backfillFinishedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ReconcileState_pkey" PRIMARY KEY ("shop")
);

-- CreateTable
CREATE TABLE "ReconcileRun" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "trigger" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'running',
    "dryRun" BOOLEAN NOT NULL DEFAULT false,
    "since" TIMESTAMP(3) NOT NULL,
    "until" TIMESTAMP(3),
    "ordersChecked" INTEGER NOT NULL DEFAULT 0,
    "eventsRecovered" INTEGER NOT NULL DEFAULT 0,
    "pointsUsed" INTEGER NOT NULL DEFAULT 0,
    "detail" TEXT,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "ReconcileRun_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ReconcileRun_shop_startedAt_idx" ON "ReconcileRun"("shop", "startedAt");
