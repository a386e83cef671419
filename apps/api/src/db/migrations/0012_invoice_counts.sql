ALTER TABLE "invoices" ADD COLUMN "line_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "subscription_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "invoices" i SET "line_count" = c.lines, "subscription_count" = c.subs
FROM (SELECT "invoice_id", count(*)::int AS lines, count(DISTINCT "subscription_id")::int AS subs
      FROM "invoice_lines" GROUP BY "invoice_id") c
WHERE c."invoice_id" = i."id";
