CREATE TABLE "invoice_fetch_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"operator_id" integer NOT NULL,
	"month" date NOT NULL,
	"status" text NOT NULL,
	"downloaded" integer DEFAULT 0 NOT NULL,
	"reason" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "invoice_lines" (
	"id" serial PRIMARY KEY NOT NULL,
	"invoice_id" integer NOT NULL,
	"client_id" integer NOT NULL,
	"subscription_id" integer,
	"position" integer NOT NULL,
	"label" text NOT NULL,
	"cost_element_id" integer NOT NULL,
	"category" text NOT NULL,
	"region" text,
	"period_start" date,
	"period_end" date,
	"count" integer,
	"quantity" numeric(16, 2),
	"unit" text,
	"unit_price" numeric(12, 4),
	"amount" numeric(14, 2) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"operator_id" integer,
	"sub_company_id" integer,
	"file_id" integer NOT NULL,
	"file_name" text NOT NULL,
	"file_sha256" text NOT NULL,
	"source" text DEFAULT 'upload' NOT NULL,
	"batch_id" text NOT NULL,
	"invoice_number" text,
	"invoice_date" date,
	"due_date" date,
	"period_start" date,
	"period_end" date,
	"customer_name" text,
	"business_id" text,
	"currency" text,
	"vat_rate" numeric(5, 2),
	"total_excl_vat" numeric(14, 2),
	"vat_amount" numeric(14, 2),
	"total_incl_vat" numeric(14, 2),
	"upload_state" text DEFAULT 'in_progress' NOT NULL,
	"parsing_status" text DEFAULT 'pending' NOT NULL,
	"error_code" text,
	"error_message" text,
	"uploaded_by" integer,
	"notify_user_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"parsed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "monthly_facts" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"invoice_id" integer NOT NULL,
	"operator_id" integer NOT NULL,
	"subscription_id" integer,
	"sub_company_id" integer,
	"cost_center_id" integer,
	"month" date NOT NULL,
	"cost_element_id" integer NOT NULL,
	"cost_category_id" integer,
	"amount" numeric(14, 2) NOT NULL,
	"quantity" numeric(16, 2),
	"unit" text
);
--> statement-breakpoint
CREATE TABLE "portal_credentials" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"operator_id" integer NOT NULL,
	"portal_url" text NOT NULL,
	"username" text NOT NULL,
	"password_sealed" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"phone_number" text NOT NULL,
	"user_name" text NOT NULL,
	"operator_id" integer NOT NULL,
	"sub_company_id" integer,
	"cost_center_id" integer,
	"current_plan_id" integer,
	"first_seen_month" date NOT NULL,
	"last_seen_month" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "invoice_fetch_runs" ADD CONSTRAINT "invoice_fetch_runs_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_fetch_runs" ADD CONSTRAINT "invoice_fetch_runs_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_cost_element_id_cost_elements_id_fk" FOREIGN KEY ("cost_element_id") REFERENCES "public"."cost_elements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_sub_company_id_sub_companies_id_fk" FOREIGN KEY ("sub_company_id") REFERENCES "public"."sub_companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monthly_facts" ADD CONSTRAINT "monthly_facts_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monthly_facts" ADD CONSTRAINT "monthly_facts_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monthly_facts" ADD CONSTRAINT "monthly_facts_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monthly_facts" ADD CONSTRAINT "monthly_facts_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monthly_facts" ADD CONSTRAINT "monthly_facts_sub_company_id_sub_companies_id_fk" FOREIGN KEY ("sub_company_id") REFERENCES "public"."sub_companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monthly_facts" ADD CONSTRAINT "monthly_facts_cost_center_id_cost_centers_id_fk" FOREIGN KEY ("cost_center_id") REFERENCES "public"."cost_centers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monthly_facts" ADD CONSTRAINT "monthly_facts_cost_element_id_cost_elements_id_fk" FOREIGN KEY ("cost_element_id") REFERENCES "public"."cost_elements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monthly_facts" ADD CONSTRAINT "monthly_facts_cost_category_id_cost_categories_id_fk" FOREIGN KEY ("cost_category_id") REFERENCES "public"."cost_categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "portal_credentials" ADD CONSTRAINT "portal_credentials_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "portal_credentials" ADD CONSTRAINT "portal_credentials_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_sub_company_id_sub_companies_id_fk" FOREIGN KEY ("sub_company_id") REFERENCES "public"."sub_companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_cost_center_id_cost_centers_id_fk" FOREIGN KEY ("cost_center_id") REFERENCES "public"."cost_centers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_current_plan_id_plans_id_fk" FOREIGN KEY ("current_plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoice_fetch_runs_client_idx" ON "invoice_fetch_runs" USING btree ("client_id","month");--> statement-breakpoint
CREATE INDEX "invoice_lines_invoice_idx" ON "invoice_lines" USING btree ("invoice_id");--> statement-breakpoint
CREATE INDEX "invoice_lines_subscription_idx" ON "invoice_lines" USING btree ("subscription_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_number_uq" ON "invoices" USING btree ("client_id","operator_id","invoice_number") WHERE "invoices"."upload_state" = 'uploaded';--> statement-breakpoint
CREATE INDEX "invoices_client_state_idx" ON "invoices" USING btree ("client_id","upload_state");--> statement-breakpoint
CREATE INDEX "invoices_client_sha_idx" ON "invoices" USING btree ("client_id","file_sha256");--> statement-breakpoint
CREATE UNIQUE INDEX "monthly_facts_uq" ON "monthly_facts" USING btree ("invoice_id",coalesce("subscription_id", 0),"cost_element_id");--> statement-breakpoint
CREATE INDEX "monthly_facts_client_month_idx" ON "monthly_facts" USING btree ("client_id","month");--> statement-breakpoint
CREATE INDEX "monthly_facts_subscription_idx" ON "monthly_facts" USING btree ("subscription_id","month");--> statement-breakpoint
CREATE UNIQUE INDEX "portal_credentials_uq" ON "portal_credentials" USING btree ("client_id","operator_id");--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_client_phone_uq" ON "subscriptions" USING btree ("client_id","phone_number");--> statement-breakpoint
CREATE INDEX "subscriptions_sub_company_idx" ON "subscriptions" USING btree ("sub_company_id");