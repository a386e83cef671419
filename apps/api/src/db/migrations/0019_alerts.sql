-- Alerts (issue 26, docs/decisions/0023-alerts.md): rule settings per client (no row: the
-- defaults) and the alerts raised, each stored once per client and dedupe key.
CREATE TABLE "alert_rules" (
	"client_id" integer NOT NULL,
	"rule" text NOT NULL,
	"enabled" boolean NOT NULL,
	"factor" numeric(6, 2),
	"amount" numeric(12, 2),
	"days" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	CONSTRAINT "alert_rules_client_id_rule_pk" PRIMARY KEY("client_id","rule")
);
--> statement-breakpoint
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_rules" ADD CONSTRAINT "alert_rules_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE TABLE "alerts" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"sub_company_id" integer,
	"cost_center_id" integer,
	"operator_id" integer,
	"subscription_id" integer,
	"invoice_id" integer,
	"contract_id" integer,
	"rule" text NOT NULL,
	"severity" text NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"dedupe_key" text NOT NULL,
	"month" date NOT NULL,
	"figures" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"acknowledged_at" timestamp with time zone,
	"acknowledged_by" integer,
	"acknowledged_note" text,
	CONSTRAINT "alerts_severity_ck" CHECK ("alerts"."severity" in ('high', 'medium', 'low')),
	CONSTRAINT "alerts_state_ck" CHECK ("alerts"."state" in ('open', 'acknowledged'))
);
--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_sub_company_id_sub_companies_id_fk" FOREIGN KEY ("sub_company_id") REFERENCES "public"."sub_companies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_cost_center_id_cost_centers_id_fk" FOREIGN KEY ("cost_center_id") REFERENCES "public"."cost_centers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_acknowledged_by_users_id_fk" FOREIGN KEY ("acknowledged_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_client_dedupe_uq" ON "alerts" USING btree ("client_id","dedupe_key");--> statement-breakpoint
CREATE INDEX "alerts_client_state_idx" ON "alerts" USING btree ("client_id","state","month");--> statement-breakpoint
CREATE INDEX "alerts_subscription_idx" ON "alerts" USING btree ("subscription_id");--> statement-breakpoint
CREATE INDEX "alerts_invoice_idx" ON "alerts" USING btree ("invoice_id");
