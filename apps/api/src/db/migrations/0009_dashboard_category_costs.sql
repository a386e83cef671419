CREATE TABLE "subscription_category_month_cost" (
	"client_id" integer NOT NULL,
	"month" date NOT NULL,
	"subscription_id" integer NOT NULL,
	"sub_company_id" integer,
	"cost_center_id" integer,
	"cost_category_id" integer,
	"cents" bigint NOT NULL,
	"facts" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "subscription_category_month_cost" ADD CONSTRAINT "subscription_category_month_cost_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_category_month_cost" ADD CONSTRAINT "subscription_category_month_cost_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_category_month_cost" ADD CONSTRAINT "subscription_category_month_cost_sub_company_id_sub_companies_id_fk" FOREIGN KEY ("sub_company_id") REFERENCES "public"."sub_companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_category_month_cost" ADD CONSTRAINT "subscription_category_month_cost_cost_center_id_cost_centers_id_fk" FOREIGN KEY ("cost_center_id") REFERENCES "public"."cost_centers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_category_month_cost" ADD CONSTRAINT "subscription_category_month_cost_cost_category_id_cost_categories_id_fk" FOREIGN KEY ("cost_category_id") REFERENCES "public"."cost_categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_category_month_cost_uq" ON "subscription_category_month_cost" USING btree ("client_id","month","subscription_id",coalesce("sub_company_id", 0),coalesce("cost_center_id", 0),coalesce("cost_category_id", 0));--> statement-breakpoint
-- A ranking under a category or usage type filter reads this index alone (index-only scan).
CREATE INDEX "subscription_category_month_cost_period_idx" ON "subscription_category_month_cost"
  ("client_id", "cost_category_id", "month") INCLUDE ("subscription_id", "cents", "sub_company_id", "cost_center_id");--> statement-breakpoint
CREATE INDEX "subscription_category_month_cost_empty_idx" ON "subscription_category_month_cost" ("client_id") WHERE "facts" = 0;--> statement-breakpoint
-- The trigger of 0003 and 0007 keeps this table too.
CREATE OR REPLACE FUNCTION "monthly_facts_summarize"() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  src text := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT *, 1 AS sign FROM new_facts'
    WHEN 'DELETE' THEN 'SELECT *, -1 AS sign FROM old_facts'
    ELSE 'SELECT *, 1 AS sign FROM new_facts UNION ALL SELECT *, -1 AS sign FROM old_facts'
  END;
BEGIN
  EXECUTE format($q$
    INSERT INTO monthly_cost_summary AS s (client_id, month, sub_company_id, cost_center_id, cost_element_id,
      cost_category_id, amount, minutes, pieces, megabytes, facts)
    SELECT client_id, month, sub_company_id, cost_center_id, cost_element_id, cost_category_id,
      sum(sign * amount),
      coalesce(sum(sign * quantity) FILTER (WHERE unit = 'min'), 0),
      coalesce(sum(sign * quantity) FILTER (WHERE unit = 'pcs'), 0),
      coalesce(sum(sign * quantity) FILTER (WHERE unit = 'mb'), 0),
      sum(sign)
    FROM (%s) d
    GROUP BY client_id, month, sub_company_id, cost_center_id, cost_element_id, cost_category_id
    ON CONFLICT (client_id, month, coalesce(sub_company_id, 0), coalesce(cost_center_id, 0), cost_element_id,
      coalesce(cost_category_id, 0))
    DO UPDATE SET amount = s.amount + excluded.amount, minutes = s.minutes + excluded.minutes,
      pieces = s.pieces + excluded.pieces, megabytes = s.megabytes + excluded.megabytes,
      facts = s.facts + excluded.facts$q$, src);
  EXECUTE format($q$
    INSERT INTO subscription_month_cost AS s (client_id, month, subscription_id, sub_company_id, cost_center_id,
      cents, facts)
    SELECT client_id, month, subscription_id, sub_company_id, cost_center_id, sum(sign * amount * 100)::bigint,
      sum(sign)
    FROM (%s) d
    WHERE subscription_id IS NOT NULL
    GROUP BY client_id, month, subscription_id, sub_company_id, cost_center_id
    ON CONFLICT (client_id, month, subscription_id, coalesce(sub_company_id, 0), coalesce(cost_center_id, 0))
    DO UPDATE SET cents = s.cents + excluded.cents, facts = s.facts + excluded.facts$q$, src);
  EXECUTE format($q$
    INSERT INTO subscription_category_month_cost AS s (client_id, month, subscription_id, sub_company_id,
      cost_center_id, cost_category_id, cents, facts)
    SELECT client_id, month, subscription_id, sub_company_id, cost_center_id, cost_category_id,
      sum(sign * amount * 100)::bigint, sum(sign)
    FROM (%s) d
    WHERE subscription_id IS NOT NULL
    GROUP BY client_id, month, subscription_id, sub_company_id, cost_center_id, cost_category_id
    ON CONFLICT (client_id, month, subscription_id, coalesce(sub_company_id, 0), coalesce(cost_center_id, 0),
      coalesce(cost_category_id, 0))
    DO UPDATE SET cents = s.cents + excluded.cents, facts = s.facts + excluded.facts$q$, src);
  IF TG_OP <> 'INSERT' THEN
    DELETE FROM monthly_cost_summary WHERE facts = 0;
    DELETE FROM subscription_month_cost WHERE facts = 0;
    DELETE FROM subscription_category_month_cost WHERE facts = 0;
  END IF;
  RETURN NULL;
END
$fn$;--> statement-breakpoint
-- Facts imported before this migration.
INSERT INTO "subscription_category_month_cost" (client_id, month, subscription_id, sub_company_id, cost_center_id,
  cost_category_id, cents, facts)
SELECT client_id, month, subscription_id, sub_company_id, cost_center_id, cost_category_id,
  (sum(amount) * 100)::bigint, count(*)
FROM "monthly_facts"
WHERE subscription_id IS NOT NULL
GROUP BY client_id, month, subscription_id, sub_company_id, cost_center_id, cost_category_id;
