-- The order's name ("#1001") beside its numeric ID, for the admin.
ALTER TABLE "OutboxEvent" ADD COLUMN "orderName" TEXT;

ALTER TABLE "WebhookReceipt" ADD COLUMN "orderName" TEXT;
