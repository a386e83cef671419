CREATE TABLE "dashboard_data_versions" (
	"client_id" integer PRIMARY KEY NOT NULL,
	"version" bigint NOT NULL
);
--> statement-breakpoint
CREATE SEQUENCE "dashboard_data_version_seq";--> statement-breakpoint
-- A statement's changed rows give their clients a new version (client 0: rows without a client).
CREATE OR REPLACE FUNCTION "dashboard_data_changed"() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  src text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT client_id FROM new_rows'
    WHEN 'DELETE' THEN 'SELECT client_id FROM old_rows'
    ELSE 'SELECT client_id FROM new_rows UNION SELECT client_id FROM old_rows'
  END;
BEGIN
  EXECUTE format($q$
    INSERT INTO dashboard_data_versions AS v (client_id, version)
    SELECT c, nextval('dashboard_data_version_seq')
    FROM (SELECT DISTINCT coalesce(client_id, 0) AS c FROM (%s) r) d
    ON CONFLICT (client_id) DO UPDATE SET version = excluded.version$q$, src);
  RETURN NULL;
END
$fn$;--> statement-breakpoint
-- Shared rows (cost categories): every client's answers change.
CREATE OR REPLACE FUNCTION "dashboard_shared_data_changed"() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO dashboard_data_versions (client_id, version) VALUES (0, nextval('dashboard_data_version_seq'))
  ON CONFLICT (client_id) DO UPDATE SET version = excluded.version;
  RETURN NULL;
END
$fn$;--> statement-breakpoint
CREATE TRIGGER "monthly_facts_version_insert" AFTER INSERT ON "monthly_facts"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_data_changed"();--> statement-breakpoint
CREATE TRIGGER "monthly_facts_version_update" AFTER UPDATE ON "monthly_facts"
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_data_changed"();--> statement-breakpoint
CREATE TRIGGER "monthly_facts_version_delete" AFTER DELETE ON "monthly_facts"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_data_changed"();--> statement-breakpoint
CREATE TRIGGER "subscriptions_version_insert" AFTER INSERT ON "subscriptions"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_data_changed"();--> statement-breakpoint
CREATE TRIGGER "subscriptions_version_update" AFTER UPDATE ON "subscriptions"
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_data_changed"();--> statement-breakpoint
CREATE TRIGGER "subscriptions_version_delete" AFTER DELETE ON "subscriptions"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_data_changed"();--> statement-breakpoint
CREATE TRIGGER "sub_companies_version_insert" AFTER INSERT ON "sub_companies"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_data_changed"();--> statement-breakpoint
CREATE TRIGGER "sub_companies_version_update" AFTER UPDATE ON "sub_companies"
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_data_changed"();--> statement-breakpoint
CREATE TRIGGER "sub_companies_version_delete" AFTER DELETE ON "sub_companies"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_data_changed"();--> statement-breakpoint
CREATE TRIGGER "cost_centers_version_insert" AFTER INSERT ON "cost_centers"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_data_changed"();--> statement-breakpoint
CREATE TRIGGER "cost_centers_version_update" AFTER UPDATE ON "cost_centers"
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_data_changed"();--> statement-breakpoint
CREATE TRIGGER "cost_centers_version_delete" AFTER DELETE ON "cost_centers"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_data_changed"();--> statement-breakpoint
CREATE TRIGGER "cost_categories_version" AFTER INSERT OR UPDATE OR DELETE ON "cost_categories"
  FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_shared_data_changed"();
