-- Reconciliation and backfill (issue 17): events recovered from the Admin API are marked, and
-- each shop keeps its watermark, schedule, lease and backfill; each run is recorded.
ALTER TABLE "OutboxEvent" ADD COLUMN "recoveredBy" TEXT;

CREATE TABLE "ReconcileState" (
    "shop" TEXT NOT NULL PRIMARY KEY,
    "reportFrom" DATETIME NOT NULL,
    "watermark" DATETIME NOT NULL,
    "nextRunAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "requestedAt" DATETIME,
    "deferredOrders" TEXT NOT NULL DEFAULT '[]',
    "recoveringRunsInARow" INTEGER NOT NULL DEFAULT 0,
    "leaseOwner" TEXT,
    "leaseExpiresAt" DATETIME,
    "lastRunId" TEXT,
    "backfillStatus" TEXT,
    "backfillSince" DATETIME,
    "backfillOperationId" TEXT,
    "backfillOrdersDone" INTEGER NOT NULL DEFAULT 0,
    "backfillToRead" TEXT NOT NULL DEFAULT '[]',
    "backfillOrdersTotal" INTEGER,
    "backfillEventsRecovered" INTEGER NOT NULL DEFAULT 0,
    "backfillDetail" TEXT,
    "backfillStartedAt" DATETIME,
    "backfillFinishedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

CREATE TABLE "ReconcileRun" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "trigger" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'running',
    "dryRun" BOOLEAN NOT NULL DEFAULT false,
    "since" DATETIME NOT NULL,
    "until" DATETIME,
    "ordersChecked" INTEGER NOT NULL DEFAULT 0,
    "eventsRecovered" INTEGER NOT NULL DEFAULT 0,
    "pointsUsed" INTEGER NOT NULL DEFAULT 0,
    "detail" TEXT,
    "startedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" DATETIME
);

CREATE INDEX "ReconcileRun_shop_startedAt_idx" ON "ReconcileRun"("shop", "startedAt");
