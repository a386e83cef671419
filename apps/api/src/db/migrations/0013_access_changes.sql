-- What the access check and the session details read (a user, a client user's limits, a company, its
-- contracts and operators) changed: every API instance listening on "kulu_access" forgets what it
-- keeps of them (plugins/access.ts, modules/auth/auth.service.ts, docs/decisions/0017). A
-- notification is sent when the transaction commits, once per transaction.
CREATE OR REPLACE FUNCTION "access_changed"() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM pg_notify('kulu_access', '');
  RETURN NULL;
END
$fn$;--> statement-breakpoint
CREATE TRIGGER "users_access_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "users"
  FOR EACH STATEMENT EXECUTE FUNCTION "access_changed"();--> statement-breakpoint
CREATE TRIGGER "user_sub_companies_access_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "user_sub_companies"
  FOR EACH STATEMENT EXECUTE FUNCTION "access_changed"();--> statement-breakpoint
CREATE TRIGGER "user_cost_centers_access_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "user_cost_centers"
  FOR EACH STATEMENT EXECUTE FUNCTION "access_changed"();--> statement-breakpoint
CREATE TRIGGER "clients_access_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "clients"
  FOR EACH STATEMENT EXECUTE FUNCTION "access_changed"();--> statement-breakpoint
CREATE TRIGGER "client_contracts_access_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "client_contracts"
  FOR EACH STATEMENT EXECUTE FUNCTION "access_changed"();--> statement-breakpoint
CREATE TRIGGER "client_operators_access_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "client_operators"
  FOR EACH STATEMENT EXECUTE FUNCTION "access_changed"();--> statement-breakpoint
CREATE TRIGGER "operators_access_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "operators"
  FOR EACH STATEMENT EXECUTE FUNCTION "access_changed"();
