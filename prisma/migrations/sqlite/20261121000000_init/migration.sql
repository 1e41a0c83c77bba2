-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "isOnline" BOOLEAN NOT NULL DEFAULT false,
    "scope" TEXT,
    "expires" DATETIME,
    "accessToken" TEXT NOT NULL,
    "userId" BIGINT,
    "firstName" TEXT,
    "lastName" TEXT,
    "email" TEXT,
    "accountOwner" BOOLEAN NOT NULL DEFAULT false,
    "locale" TEXT,
    "collaborator" BOOLEAN DEFAULT false,
    "emailVerified" BOOLEAN DEFAULT false,
    "refreshToken" TEXT,
    "refreshTokenExpires" DATETIME
);

-- CreateTable
CREATE TABLE "ShopConnection" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "environment" TEXT NOT NULL DEFAULT 'sandbox',
    "apiVersion" TEXT NOT NULL DEFAULT 'v2.0',
    "status" TEXT NOT NULL DEFAULT 'not_connected',
    "statusDetail" TEXT,
    "sandboxSecretKeySealed" TEXT,
    "sandboxSecretKeyLast4" TEXT,
    "liveSecretKeySealed" TEXT,
    "liveSecretKeyLast4" TEXT,
    "sandboxPublishableKey" TEXT,
    "livePublishableKey" TEXT,
    "reportOrdersWithoutPlan" BOOLEAN NOT NULL DEFAULT true,
    "grantedScopes" TEXT,
    "installedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "uninstalledAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "WebhookReceipt" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "webhookId" TEXT NOT NULL,
    "eventId" TEXT,
    "apiVersion" TEXT,
    "orderId" TEXT,
    "status" TEXT NOT NULL,
    "detail" TEXT,
    "receivedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "OutboxEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "eventType" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastError" TEXT,
    "serviceEventId" TEXT,
    "sourceReceiptId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deliveredAt" DATETIME,
    "updatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "Session_shop_idx" ON "Session"("shop");

-- CreateIndex
CREATE UNIQUE INDEX "ShopConnection_shop_key" ON "ShopConnection"("shop");

-- CreateIndex
CREATE INDEX "WebhookReceipt_shop_receivedAt_idx" ON "WebhookReceipt"("shop", "receivedAt");

-- CreateIndex
CREATE INDEX "WebhookReceipt_shop_orderId_idx" ON "WebhookReceipt"("shop", "orderId");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookReceipt_shop_webhookId_key" ON "WebhookReceipt"("shop", "webhookId");

-- CreateIndex
CREATE INDEX "OutboxEvent_status_nextAttemptAt_idx" ON "OutboxEvent"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "OutboxEvent_shop_orderId_createdAt_idx" ON "OutboxEvent"("shop", "orderId", "createdAt");

-- CreateIndex
CREATE INDEX "OutboxEvent_shop_createdAt_idx" ON "OutboxEvent"("shop", "createdAt");
