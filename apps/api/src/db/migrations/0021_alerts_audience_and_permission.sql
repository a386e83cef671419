-- Alerts (issue 26, docs/decisions/0023-alerts.md), second part.
-- 1. Who reads an alert: 'all' (the client's users within their Scope, and the provider side) or
--    'provider' (the provider's admins and the client's assigned consultants only: the provider's
--    own client contract ending). The Scope filters it (ScopeColumns.audience).
ALTER TABLE "alerts" ADD COLUMN "audience" text DEFAULT 'all' NOT NULL;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_audience_ck" CHECK ("alerts"."audience" in ('all', 'provider'));--> statement-breakpoint
-- 2. The permission `alerts` for users with a saved permission list who see costs: the list holds
--    the dashboards or the cost summary report and not yet `alerts` (users without a list get it
--    from the defaults; company admins hold their role's whole set whatever their list says).
UPDATE "users" SET "permissions" = "permissions" || '["alerts"]'::jsonb
WHERE jsonb_typeof("permissions") = 'array'
  AND ("permissions" @> '["dashboards"]'::jsonb OR "permissions" @> '["reports.costSummary"]'::jsonb)
  AND NOT "permissions" @> '["alerts"]'::jsonb;
