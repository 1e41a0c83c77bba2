-- The order's name ("#1001") beside its numeric ID, for the admin.
-- AlterTable
ALTER TABLE "OutboxEvent" ADD COLUMN     "orderName" TEXT;

-- AlterTable
ALTER TABLE "WebhookReceipt" ADD COLUMN     "orderName" TEXT;
