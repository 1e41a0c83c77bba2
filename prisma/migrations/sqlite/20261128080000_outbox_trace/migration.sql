-- The webhook's trace and span on each outbox row, so that a send attempt's span joins the
-- webhook's trace when tracing is on (issue 28, decision 051).
ALTER TABLE "OutboxEvent" ADD COLUMN "traceId" TEXT;
ALTER TABLE "OutboxEvent" ADD COLUMN "traceSpanId" TEXT;
