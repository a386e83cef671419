-- Reconciled to the cent, visibly (issue 38): each invoice keeps its VAT per rate as stated
-- (vat_breakdown; a PDF's or a one-rate invoice's one rate), the differences its own figures show
-- (differences: stated vs computed, where), and the largest of them (difference: 0 reconciled, null
-- not read) for the list and the dashboard, and the sums of its subscriptions' and invoice-level
-- lines as read (the lines of skipped numbers are not stored); a line in a unit Kulu does not
-- convert keeps the invoice's own unit (unit_code, with unit 'other'). Invoices read before keep
-- their one rate and their stored lines' sums (they reconciled to the cent, or were refused).
ALTER TABLE "invoices" ADD COLUMN "vat_breakdown" jsonb;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "differences" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "difference" numeric(14, 2);--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "subscriptions_total" numeric(14, 2);--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "other_lines_total" numeric(14, 2);--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD COLUMN "unit_code" text;--> statement-breakpoint
UPDATE "invoices" i SET "difference" = 0,
  "vat_breakdown" = jsonb_build_array(jsonb_build_object('rate', i."vat_rate"::float8, 'base', i."total_excl_vat"::float8, 'vat', i."vat_amount"::float8)),
  "subscriptions_total" = coalesce((SELECT sum(l."amount") FROM "invoice_lines" l WHERE l."invoice_id" = i."id" AND l."subscription_id" IS NOT NULL), 0),
  "other_lines_total" = coalesce((SELECT sum(l."amount") FROM "invoice_lines" l WHERE l."invoice_id" = i."id" AND l."subscription_id" IS NULL), 0)
  WHERE i."upload_state" = 'uploaded' AND i."vat_rate" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "invoices_client_difference_idx" ON "invoices" USING btree ("client_id") WHERE abs("difference") > 0.01;
