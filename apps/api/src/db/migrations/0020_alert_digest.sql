-- The alert digest mail (issue 26, docs/decisions/0026-alert-digest.md): how each user gets it
-- (immediately, daily or never), and the highest alert id already digested for them. Users who
-- exist now start after the alerts already stored, so an upgrade mails no history.
ALTER TABLE "users" ADD COLUMN "alert_digest" text DEFAULT 'daily' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "alert_digest_after" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_alert_digest_ck" CHECK ("users"."alert_digest" in ('immediate', 'daily', 'off'));--> statement-breakpoint
UPDATE "users" SET "alert_digest_after" = coalesce((SELECT max("id") FROM "alerts"), 0);
