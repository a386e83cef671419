-- subscription_month_cost keeps integer cents (amounts have two decimals, so amount × 100 is exact):
-- the top users rank a row per subscription and month, and bigint sums run several times faster
-- than numeric ones. 0008 drops the numeric column once nothing writes it.
ALTER TABLE "subscription_month_cost" ADD COLUMN "cents" bigint NOT NULL DEFAULT 0;--> statement-breakpoint
UPDATE "subscription_month_cost" SET "cents" = ("amount" * 100)::bigint;--> statement-breakpoint
ALTER TABLE "subscription_month_cost" ALTER COLUMN "cents" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "subscription_month_cost" ALTER COLUMN "amount" DROP NOT NULL;--> statement-breakpoint
-- The ranking of a period reads this index alone (index-only scan), the Scope's columns included.
CREATE INDEX "subscription_month_cost_period_idx" ON "subscription_month_cost"
  ("client_id", "month", "subscription_id") INCLUDE ("cents", "sub_company_id", "cost_center_id");--> statement-breakpoint
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
  IF TG_OP <> 'INSERT' THEN
    DELETE FROM monthly_cost_summary WHERE facts = 0;
    DELETE FROM subscription_month_cost WHERE facts = 0;
  END IF;
  RETURN NULL;
END
$fn$;
