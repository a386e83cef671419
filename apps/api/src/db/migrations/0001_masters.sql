CREATE TABLE "base_plan_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"operator_id" integer NOT NULL,
	"plan_type" text NOT NULL,
	"cost_category_id" integer,
	"automatic_categorization" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "client_billing_plans" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"contract_length_months" integer NOT NULL,
	"advance_payment_discount_percent" numeric(5, 2) NOT NULL,
	"cost_per_plan" numeric(12, 2) NOT NULL,
	"set_up_fee" numeric(12, 2) NOT NULL,
	"set_up_fee_per_company" numeric(12, 2) NOT NULL,
	"additional_users_fee" numeric(12, 2) NOT NULL,
	"automated_invoice_upload_fee" numeric(12, 2) NOT NULL,
	"on_demand_support_fee" numeric(12, 2) NOT NULL,
	"admin_fee" numeric(12, 2) NOT NULL,
	"company_additional_users_fee" numeric(12, 2) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cost_categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"name_fi" text NOT NULL,
	"operator_id" integer,
	"usage_type" text NOT NULL,
	"zone" text NOT NULL,
	"cost_group_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cost_elements" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"operator_id" integer NOT NULL,
	"cost_category_id" integer,
	"status" text DEFAULT 'uncategorized' NOT NULL,
	"approved_at" timestamp with time zone,
	"approved_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cost_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"is_current_plan" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "countries" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"code" text NOT NULL,
	"zone" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "currencies" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"abbreviation" text NOT NULL,
	"symbol" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "help_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"role_id" integer NOT NULL,
	"page" text NOT NULL,
	"language_id" integer NOT NULL,
	"file_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plan_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"operator_id" integer NOT NULL,
	"plan_type" text NOT NULL,
	"cost_category_id" integer,
	"automatic_categorization" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plans" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"operator_id" integer NOT NULL,
	"plan_type" text NOT NULL,
	"plan_group_id" integer,
	"base_plan_group_id" integer,
	"list_price" numeric(12, 2) NOT NULL,
	"contract_price" numeric(12, 2),
	"unlimited" boolean DEFAULT false NOT NULL,
	"data_slab_mb" integer,
	"data_speed_mbps" integer,
	"exceeding_data_cost" numeric(12, 4),
	"eu_data_gb" numeric(10, 2),
	"voice_list_price" numeric(12, 4),
	"voice_contract_price" numeric(12, 4),
	"sms_list_price" numeric(12, 4),
	"sms_contract_price" numeric(12, 4),
	"packet_plan_size" integer,
	"per_minute_cost" numeric(12, 4),
	"additional_minute_cost" numeric(12, 4),
	"sms_cost" numeric(12, 4),
	"sms_addon_size" integer,
	"data_in_nordic_baltic" boolean DEFAULT false NOT NULL,
	"sms_in_nordic_baltic" boolean DEFAULT false NOT NULL,
	"voice_in_nordic_baltic" boolean DEFAULT false NOT NULL,
	"data_in_eu" boolean DEFAULT false NOT NULL,
	"sms_in_eu" boolean DEFAULT false NOT NULL,
	"voice_in_eu" boolean DEFAULT false NOT NULL,
	"coverage" text DEFAULT 'no_limitations' NOT NULL,
	"scope" text DEFAULT 'general' NOT NULL,
	"client_id" integer,
	"consider_for_optimization" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "skipped_phone_numbers" (
	"id" serial PRIMARY KEY NOT NULL,
	"phone_number" text NOT NULL,
	"client_id" integer,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "client_contracts" ADD COLUMN "billing_plan_id" integer;--> statement-breakpoint
ALTER TABLE "base_plan_groups" ADD CONSTRAINT "base_plan_groups_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "base_plan_groups" ADD CONSTRAINT "base_plan_groups_cost_category_id_cost_categories_id_fk" FOREIGN KEY ("cost_category_id") REFERENCES "public"."cost_categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cost_categories" ADD CONSTRAINT "cost_categories_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cost_categories" ADD CONSTRAINT "cost_categories_cost_group_id_cost_groups_id_fk" FOREIGN KEY ("cost_group_id") REFERENCES "public"."cost_groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cost_elements" ADD CONSTRAINT "cost_elements_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cost_elements" ADD CONSTRAINT "cost_elements_cost_category_id_cost_categories_id_fk" FOREIGN KEY ("cost_category_id") REFERENCES "public"."cost_categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cost_elements" ADD CONSTRAINT "cost_elements_approved_by_users_id_fk" FOREIGN KEY ("approved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "help_files" ADD CONSTRAINT "help_files_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_groups" ADD CONSTRAINT "plan_groups_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_groups" ADD CONSTRAINT "plan_groups_cost_category_id_cost_categories_id_fk" FOREIGN KEY ("cost_category_id") REFERENCES "public"."cost_categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_plan_group_id_plan_groups_id_fk" FOREIGN KEY ("plan_group_id") REFERENCES "public"."plan_groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_base_plan_group_id_base_plan_groups_id_fk" FOREIGN KEY ("base_plan_group_id") REFERENCES "public"."base_plan_groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plans" ADD CONSTRAINT "plans_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "skipped_phone_numbers" ADD CONSTRAINT "skipped_phone_numbers_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "base_plan_groups_name_uq" ON "base_plan_groups" USING btree ("operator_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "client_billing_plans_name_uq" ON "client_billing_plans" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "cost_categories_name_uq" ON "cost_categories" USING btree (lower("name"),coalesce("operator_id", 0));--> statement-breakpoint
CREATE INDEX "cost_categories_operator_idx" ON "cost_categories" USING btree ("operator_id");--> statement-breakpoint
CREATE UNIQUE INDEX "cost_elements_name_uq" ON "cost_elements" USING btree ("operator_id",lower("name"));--> statement-breakpoint
CREATE INDEX "cost_elements_category_idx" ON "cost_elements" USING btree ("cost_category_id");--> statement-breakpoint
CREATE INDEX "cost_elements_status_idx" ON "cost_elements" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "cost_groups_name_uq" ON "cost_groups" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "countries_name_uq" ON "countries" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "countries_code_uq" ON "countries" USING btree ("code");--> statement-breakpoint
CREATE UNIQUE INDEX "currencies_name_uq" ON "currencies" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "currencies_abbreviation_uq" ON "currencies" USING btree ("abbreviation");--> statement-breakpoint
CREATE UNIQUE INDEX "help_files_uq" ON "help_files" USING btree ("role_id","page","language_id");--> statement-breakpoint
CREATE UNIQUE INDEX "plan_groups_name_uq" ON "plan_groups" USING btree ("operator_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "plans_name_uq" ON "plans" USING btree ("operator_id",lower("name"),coalesce("client_id", 0));--> statement-breakpoint
CREATE INDEX "plans_client_idx" ON "plans" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "plans_plan_group_idx" ON "plans" USING btree ("plan_group_id");--> statement-breakpoint
CREATE UNIQUE INDEX "skipped_phone_numbers_uq" ON "skipped_phone_numbers" USING btree ("phone_number",coalesce("client_id", 0));--> statement-breakpoint
ALTER TABLE "client_contracts" ADD CONSTRAINT "client_contracts_billing_plan_id_client_billing_plans_id_fk" FOREIGN KEY ("billing_plan_id") REFERENCES "public"."client_billing_plans"("id") ON DELETE no action ON UPDATE no action;