-- Issue 22: the operator chosen at sign-in limits the dashboards too, so the pre-aggregates keep
-- the operator apart (monthly_facts has it). They are emptied, given the column and filled again
-- from the facts at the end; the trigger keeps the new column from now on.
DELETE FROM "monthly_cost_summary";--> statement-breakpoint
DELETE FROM "subscription_month_cost";--> statement-breakpoint
DELETE FROM "subscription_category_month_cost";--> statement-breakpoint
DROP INDEX "monthly_cost_summary_uq";--> statement-breakpoint
DROP INDEX "subscription_category_month_cost_uq";--> statement-breakpoint
DROP INDEX "subscription_month_cost_uq";--> statement-breakpoint
ALTER TABLE "monthly_cost_summary" ADD COLUMN "operator_id" integer NOT NULL;--> statement-breakpoint
ALTER TABLE "subscription_category_month_cost" ADD COLUMN "operator_id" integer NOT NULL;--> statement-breakpoint
ALTER TABLE "subscription_month_cost" ADD COLUMN "operator_id" integer NOT NULL;--> statement-breakpoint
ALTER TABLE "monthly_cost_summary" ADD CONSTRAINT "monthly_cost_summary_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_category_month_cost" ADD CONSTRAINT "subscription_category_month_cost_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_month_cost" ADD CONSTRAINT "subscription_month_cost_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "monthly_cost_summary_uq" ON "monthly_cost_summary" USING btree ("client_id","month","operator_id",coalesce("sub_company_id", 0),coalesce("cost_center_id", 0),"cost_element_id",coalesce("cost_category_id", 0));--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_category_month_cost_uq" ON "subscription_category_month_cost" USING btree ("client_id","month","operator_id","subscription_id",coalesce("sub_company_id", 0),coalesce("cost_center_id", 0),coalesce("cost_category_id", 0));--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_month_cost_uq" ON "subscription_month_cost" USING btree ("client_id","month","operator_id","subscription_id",coalesce("sub_company_id", 0),coalesce("cost_center_id", 0));--> statement-breakpoint
-- The rankings still read these indexes alone (index-only scan), the operator among the Scope's columns.
DROP INDEX "subscription_month_cost_period_idx";--> statement-breakpoint
CREATE INDEX "subscription_month_cost_period_idx" ON "subscription_month_cost"
  ("client_id", "month", "subscription_id") INCLUDE ("cents", "sub_company_id", "cost_center_id", "operator_id");--> statement-breakpoint
DROP INDEX "subscription_category_month_cost_period_idx";--> statement-breakpoint
CREATE INDEX "subscription_category_month_cost_period_idx" ON "subscription_category_month_cost"
  ("client_id", "cost_category_id", "month") INCLUDE ("subscription_id", "cents", "sub_company_id", "cost_center_id", "operator_id");--> statement-breakpoint
-- The trigger of 0003, 0007 and 0009, with the operator.
CREATE OR REPLACE FUNCTION "monthly_facts_summarize"() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  src text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT *, 1 AS sign FROM new_facts'
    WHEN 'DELETE' THEN 'SELECT *, -1 AS sign FROM old_facts'
    ELSE 'SELECT *, 1 AS sign FROM new_facts UNION ALL SELECT *, -1 AS sign FROM old_facts'
  END;
BEGIN
  EXECUTE format($q$
    INSERT INTO monthly_cost_summary AS s (client_id, month, operator_id, sub_company_id, cost_center_id,
      cost_element_id, cost_category_id, amount, minutes, pieces, megabytes, facts)
    SELECT client_id, month, operator_id, sub_company_id, cost_center_id, cost_element_id, cost_category_id,
      sum(sign * amount),
      coalesce(sum(sign * quantity) FILTER (WHERE unit = 'min'), 0),
      coalesce(sum(sign * quantity) FILTER (WHERE unit = 'pcs'), 0),
      coalesce(sum(sign * quantity) FILTER (WHERE unit = 'mb'), 0),
      sum(sign)
    FROM (%s) d
    GROUP BY client_id, month, operator_id, sub_company_id, cost_center_id, cost_element_id, cost_category_id
    ON CONFLICT (client_id, month, operator_id, coalesce(sub_company_id, 0), coalesce(cost_center_id, 0),
      cost_element_id, coalesce(cost_category_id, 0))
    DO UPDATE SET amount = s.amount + excluded.amount, minutes = s.minutes + excluded.minutes,
      pieces = s.pieces + excluded.pieces, megabytes = s.megabytes + excluded.megabytes,
      facts = s.facts + excluded.facts$q$, src);
  EXECUTE format($q$
    INSERT INTO subscription_month_cost AS s (client_id, month, operator_id, subscription_id, sub_company_id,
      cost_center_id, cents, facts)
    SELECT client_id, month, operator_id, subscription_id, sub_company_id, cost_center_id,
      sum(sign * amount * 100)::bigint, sum(sign)
    FROM (%s) d
    WHERE subscription_id IS NOT NULL
    GROUP BY client_id, month, operator_id, subscription_id, sub_company_id, cost_center_id
    ON CONFLICT (client_id, month, operator_id, subscription_id, coalesce(sub_company_id, 0),
      coalesce(cost_center_id, 0))
    DO UPDATE SET cents = s.cents + excluded.cents, facts = s.facts + excluded.facts$q$, src);
  EXECUTE format($q$
    INSERT INTO subscription_category_month_cost AS s (client_id, month, operator_id, subscription_id,
      sub_company_id, cost_center_id, cost_category_id, cents, facts)
    SELECT client_id, month, operator_id, subscription_id, sub_company_id, cost_center_id, cost_category_id,
      sum(sign * amount * 100)::bigint, sum(sign)
    FROM (%s) d
    WHERE subscription_id IS NOT NULL
    GROUP BY client_id, month, operator_id, subscription_id, sub_company_id, cost_center_id, cost_category_id
    ON CONFLICT (client_id, month, operator_id, subscription_id, coalesce(sub_company_id, 0),
      coalesce(cost_center_id, 0), coalesce(cost_category_id, 0))
    DO UPDATE SET cents = s.cents + excluded.cents, facts = s.facts + excluded.facts$q$, src);
  IF TG_OP <> 'INSERT' THEN
    DELETE FROM monthly_cost_summary WHERE facts = 0;
    DELETE FROM subscription_month_cost WHERE facts = 0;
    DELETE FROM subscription_category_month_cost WHERE facts = 0;
  END IF;
  RETURN NULL;
END
$fn$;--> statement-breakpoint
-- The facts imported before this migration.
INSERT INTO "monthly_cost_summary" (client_id, month, operator_id, sub_company_id, cost_center_id, cost_element_id,
  cost_category_id, amount, minutes, pieces, megabytes, facts)
SELECT client_id, month, operator_id, sub_company_id, cost_center_id, cost_element_id, cost_category_id, sum(amount),
  coalesce(sum(quantity) FILTER (WHERE unit = 'min'), 0), coalesce(sum(quantity) FILTER (WHERE unit = 'pcs'), 0),
  coalesce(sum(quantity) FILTER (WHERE unit = 'mb'), 0), count(*)
FROM "monthly_facts"
GROUP BY client_id, month, operator_id, sub_company_id, cost_center_id, cost_element_id, cost_category_id;--> statement-breakpoint
INSERT INTO "subscription_month_cost" (client_id, month, operator_id, subscription_id, sub_company_id, cost_center_id,
  cents, facts)
SELECT client_id, month, operator_id, subscription_id, sub_company_id, cost_center_id, (sum(amount) * 100)::bigint,
  count(*)
FROM "monthly_facts"
WHERE subscription_id IS NOT NULL
GROUP BY client_id, month, operator_id, subscription_id, sub_company_id, cost_center_id;--> statement-breakpoint
INSERT INTO "subscription_category_month_cost" (client_id, month, operator_id, subscription_id, sub_company_id,
  cost_center_id, cost_category_id, cents, facts)
SELECT client_id, month, operator_id, subscription_id, sub_company_id, cost_center_id, cost_category_id,
  (sum(amount) * 100)::bigint, count(*)
FROM "monthly_facts"
WHERE subscription_id IS NOT NULL
GROUP BY client_id, month, operator_id, subscription_id, sub_company_id, cost_center_id, cost_category_id;
