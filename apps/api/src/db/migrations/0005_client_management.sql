CREATE TABLE "activity_log" (
	"id" serial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" integer,
	"client_id" integer,
	"area" text NOT NULL,
	"action" text NOT NULL,
	"entity" text NOT NULL,
	"entity_id" integer,
	"before" jsonb,
	"after" jsonb
);
--> statement-breakpoint
CREATE TABLE "client_operator_documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"client_operator_id" integer NOT NULL,
	"name" text NOT NULL,
	"file_id" integer NOT NULL,
	"uploaded_by" integer,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "client_payments" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"payment_date" date NOT NULL,
	"description" text,
	"amount" numeric(14, 2) NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "client_payments_amount_ck" CHECK ("client_payments"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "consultant_companies" (
	"consultant_client_id" integer NOT NULL,
	"client_id" integer NOT NULL,
	"assigned_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "consultant_companies_consultant_client_id_client_id_pk" PRIMARY KEY("consultant_client_id","client_id"),
	CONSTRAINT "consultant_companies_not_self_ck" CHECK ("consultant_companies"."consultant_client_id" <> "consultant_companies"."client_id")
);
--> statement-breakpoint
CREATE TABLE "consultant_user_companies" (
	"user_id" integer NOT NULL,
	"client_id" integer NOT NULL,
	"assigned_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "consultant_user_companies_user_id_client_id_pk" PRIMARY KEY("user_id","client_id")
);
--> statement-breakpoint
CREATE TABLE "invoice_users" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"phone_number" text NOT NULL,
	"subscription_id" integer,
	"name" text NOT NULL,
	"email" text,
	"sub_company_id" integer,
	"cost_center_id" integer,
	"mobile_benefit" boolean DEFAULT false NOT NULL,
	"five_g_plan" boolean DEFAULT false NOT NULL,
	"allow_login" boolean DEFAULT false NOT NULL,
	"user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "on_demand_support" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"support_date" date NOT NULL,
	"description" text,
	"hours" numeric(6, 2) NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "on_demand_support_hours_ck" CHECK ("on_demand_support"."hours" > 0)
);
--> statement-breakpoint
ALTER TABLE "client_contracts" ADD COLUMN "billing_cycle" text DEFAULT 'monthly' NOT NULL;--> statement-breakpoint
ALTER TABLE "client_contracts" ADD COLUMN "number_of_plans" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "client_contracts" ADD COLUMN "units" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "client_contracts" ADD COLUMN "cost_per_unit" numeric(12, 2);--> statement-breakpoint
ALTER TABLE "client_contracts" ADD COLUMN "monthly_cost" numeric(14, 2);--> statement-breakpoint
ALTER TABLE "client_contracts" ADD COLUMN "yearly_cost" numeric(14, 2);--> statement-breakpoint
ALTER TABLE "client_contracts" ADD COLUMN "activated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "client_contracts" ADD COLUMN "terminated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "client_contracts" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "provider_account_id" text;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "operator_id" integer;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "admin_name" text;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "reminder_date" date;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "converted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "billing_plan_id" integer;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "sub_companies" ADD COLUMN "number_of_users" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sub_companies" ADD COLUMN "billing_plan_id" integer;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "country" text;--> statement-breakpoint
ALTER TABLE "activity_log" ADD CONSTRAINT "activity_log_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_log" ADD CONSTRAINT "activity_log_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_operator_documents" ADD CONSTRAINT "client_operator_documents_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_operator_documents" ADD CONSTRAINT "client_operator_documents_client_operator_id_client_operators_id_fk" FOREIGN KEY ("client_operator_id") REFERENCES "public"."client_operators"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_operator_documents" ADD CONSTRAINT "client_operator_documents_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_operator_documents" ADD CONSTRAINT "client_operator_documents_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_payments" ADD CONSTRAINT "client_payments_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_payments" ADD CONSTRAINT "client_payments_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultant_companies" ADD CONSTRAINT "consultant_companies_consultant_client_id_clients_id_fk" FOREIGN KEY ("consultant_client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultant_companies" ADD CONSTRAINT "consultant_companies_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultant_user_companies" ADD CONSTRAINT "consultant_user_companies_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultant_user_companies" ADD CONSTRAINT "consultant_user_companies_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_users" ADD CONSTRAINT "invoice_users_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_users" ADD CONSTRAINT "invoice_users_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_users" ADD CONSTRAINT "invoice_users_sub_company_id_sub_companies_id_fk" FOREIGN KEY ("sub_company_id") REFERENCES "public"."sub_companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_users" ADD CONSTRAINT "invoice_users_cost_center_id_cost_centers_id_fk" FOREIGN KEY ("cost_center_id") REFERENCES "public"."cost_centers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_users" ADD CONSTRAINT "invoice_users_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "on_demand_support" ADD CONSTRAINT "on_demand_support_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "on_demand_support" ADD CONSTRAINT "on_demand_support_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activity_log_client_at_idx" ON "activity_log" USING btree ("client_id","at");--> statement-breakpoint
CREATE INDEX "activity_log_user_at_idx" ON "activity_log" USING btree ("user_id","at");--> statement-breakpoint
CREATE INDEX "activity_log_area_at_idx" ON "activity_log" USING btree ("area","at");--> statement-breakpoint
CREATE UNIQUE INDEX "client_operator_documents_name_uq" ON "client_operator_documents" USING btree ("client_operator_id",lower("name"));--> statement-breakpoint
CREATE INDEX "client_operator_documents_client_idx" ON "client_operator_documents" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "client_payments_client_idx" ON "client_payments" USING btree ("client_id","payment_date");--> statement-breakpoint
CREATE INDEX "consultant_companies_client_idx" ON "consultant_companies" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "consultant_user_companies_client_idx" ON "consultant_user_companies" USING btree ("client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_users_phone_uq" ON "invoice_users" USING btree ("client_id","phone_number");--> statement-breakpoint
CREATE INDEX "invoice_users_sub_company_idx" ON "invoice_users" USING btree ("sub_company_id");--> statement-breakpoint
CREATE INDEX "invoice_users_cost_center_idx" ON "invoice_users" USING btree ("cost_center_id");--> statement-breakpoint
CREATE INDEX "on_demand_support_client_idx" ON "on_demand_support" USING btree ("client_id","support_date");--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_billing_plan_id_client_billing_plans_id_fk" FOREIGN KEY ("billing_plan_id") REFERENCES "public"."client_billing_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sub_companies" ADD CONSTRAINT "sub_companies_billing_plan_id_client_billing_plans_id_fk" FOREIGN KEY ("billing_plan_id") REFERENCES "public"."client_billing_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "client_contracts_client_idx" ON "client_contracts" USING btree ("client_id","start_date");--> statement-breakpoint
CREATE UNIQUE INDEX "clients_provider_account_id_uq" ON "clients" USING btree (lower("provider_account_id")) WHERE "clients"."provider_account_id" is not null;--> statement-breakpoint
CREATE INDEX "clients_interest_status_idx" ON "clients" USING btree ("interest_status");--> statement-breakpoint
CREATE INDEX "clients_reminder_date_idx" ON "clients" USING btree ("reminder_date");--> statement-breakpoint
ALTER TABLE "client_contracts" ADD CONSTRAINT "client_contracts_units_ck" CHECK ("client_contracts"."units" in (0, 1));--> statement-breakpoint
ALTER TABLE "client_contracts" ADD CONSTRAINT "client_contracts_number_of_plans_ck" CHECK ("client_contracts"."number_of_plans" >= 0);--> statement-breakpoint
ALTER TABLE "client_contracts" ADD CONSTRAINT "client_contracts_dates_ck" CHECK ("client_contracts"."start_date" <= "client_contracts"."end_date");--> statement-breakpoint
ALTER TABLE "client_contracts" ADD CONSTRAINT "client_contracts_termination_ck" CHECK ("client_contracts"."termination_date" is null or ("client_contracts"."termination_date" between "client_contracts"."start_date" and "client_contracts"."end_date"));--> statement-breakpoint
ALTER TABLE "sub_companies" ADD CONSTRAINT "sub_companies_number_of_users_ck" CHECK ("sub_companies"."number_of_users" >= 0);