-- Alerts (issue 37, docs/decisions/0023-alerts.md).
-- 1. An alert belongs to its invoice: deleting the invoice deletes its alerts (until now the link
--    was cleared and the alert stayed open in the bell). The alerts earlier deletes left behind go
--    now: an import rule's alert without its invoice (the daily rules' alerts never had one).
DELETE FROM "alerts" WHERE "invoice_id" IS NULL
  AND "rule" IN ('cost_jump', 'roaming', 'service_numbers', 'new_subscription', 'subscription_gone');--> statement-breakpoint
ALTER TABLE "alerts" DROP CONSTRAINT "alerts_invoice_id_invoices_id_fk";--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- 2. Every change of alerts (raised, acknowledged, deleted with an invoice) notifies the channel
--    `kulu_alerts` on commit with the clients it touched (comma-separated; empty: too many to name,
--    any client), so that each API instance pushes the bell's new count to its open streams
--    (GET /api/alerts/events).
CREATE OR REPLACE FUNCTION "alerts_changed"() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  ids text;
BEGIN
  IF TG_OP = 'DELETE' THEN
    SELECT string_agg(DISTINCT "client_id"::text, ',') INTO ids FROM "old_rows";
  ELSE
    SELECT string_agg(DISTINCT "client_id"::text, ',') INTO ids FROM "new_rows";
  END IF;
  IF ids IS NOT NULL THEN
    PERFORM pg_notify('kulu_alerts', CASE WHEN length(ids) > 7000 THEN '' ELSE ids END);
  END IF;
  RETURN NULL;
END
$fn$;--> statement-breakpoint
CREATE TRIGGER "alerts_inserted" AFTER INSERT ON "alerts" REFERENCING NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "alerts_changed"();--> statement-breakpoint
CREATE TRIGGER "alerts_updated" AFTER UPDATE ON "alerts" REFERENCING NEW TABLE AS "new_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "alerts_changed"();--> statement-breakpoint
CREATE TRIGGER "alerts_deleted" AFTER DELETE ON "alerts" REFERENCING OLD TABLE AS "old_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "alerts_changed"();
