-- Issue 37, items 5 and 7. Counters of what a stranger can repeat on the public account calls (reset
-- and sign-up-notice mails per recipient, sign-ups per address and overall), kept in the database so
-- that every API instance counts against the same limit (lib/rate-counters.ts): one row per key, the
-- count of its current window.
CREATE TABLE "rate_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer NOT NULL
);--> statement-breakpoint
-- Sessions ended by "Log out" before their token expires (the token's `sid`): the access check
-- refuses them. A row is needed only until the token's own expiry; a sign-out removes expired rows.
CREATE TABLE "revoked_sessions" (
	"sid" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
ALTER TABLE "revoked_sessions" ADD CONSTRAINT "revoked_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "revoked_sessions_user_idx" ON "revoked_sessions" USING btree ("user_id");--> statement-breakpoint
-- What the access check reads (migration 0013): a sign-out on one instance reaches the others' caches.
CREATE TRIGGER "revoked_sessions_access_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "revoked_sessions"
  FOR EACH STATEMENT EXECUTE FUNCTION "access_changed"();
