CREATE TABLE "auth_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "auth_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "client_contracts" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"status" text NOT NULL,
	"term" text,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"inactive_date" date,
	"termination_date" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "client_operators" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"operator_id" integer NOT NULL,
	"sales_contact_name" text,
	"upload_invoice_reminder" boolean DEFAULT false NOT NULL,
	"contract_start_date" date,
	"contract_end_date" date,
	"contract_end_reminder" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "clients" (
	"id" serial PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"company_name" text NOT NULL,
	"business_id" text NOT NULL,
	"address" text,
	"country" text,
	"contact_number" text,
	"email" text NOT NULL,
	"profile_status" text DEFAULT 'active' NOT NULL,
	"lead_status" text,
	"interest_status" text DEFAULT 'not_converted' NOT NULL,
	"invoice_upload_method" text DEFAULT 'manual' NOT NULL,
	"logo_file_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cost_centers" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"sub_company_id" integer,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "files" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"mime" text NOT NULL,
	"size" integer NOT NULL,
	"data" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operators" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "operators_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sub_companies" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_cost_centers" (
	"user_id" integer NOT NULL,
	"cost_center_id" integer NOT NULL,
	CONSTRAINT "user_cost_centers_user_id_cost_center_id_pk" PRIMARY KEY("user_id","cost_center_id")
);
--> statement-breakpoint
CREATE TABLE "user_sub_companies" (
	"user_id" integer NOT NULL,
	"sub_company_id" integer NOT NULL,
	CONSTRAINT "user_sub_companies_user_id_sub_company_id_pk" PRIMARY KEY("user_id","sub_company_id")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"password_hash" text,
	"full_name" text NOT NULL,
	"role_id" integer NOT NULL,
	"client_id" integer,
	"contact_number" text,
	"address" text,
	"language_id" integer DEFAULT 1 NOT NULL,
	"theme_id" integer DEFAULT 1 NOT NULL,
	"logo_file_id" integer,
	"status" text DEFAULT 'active' NOT NULL,
	"activated" boolean DEFAULT false NOT NULL,
	"permissions" jsonb,
	"token_version" integer DEFAULT 0 NOT NULL,
	"failed_logins" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"last_login_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "auth_tokens" ADD CONSTRAINT "auth_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_contracts" ADD CONSTRAINT "client_contracts_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_operators" ADD CONSTRAINT "client_operators_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_operators" ADD CONSTRAINT "client_operators_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cost_centers" ADD CONSTRAINT "cost_centers_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cost_centers" ADD CONSTRAINT "cost_centers_sub_company_id_sub_companies_id_fk" FOREIGN KEY ("sub_company_id") REFERENCES "public"."sub_companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sub_companies" ADD CONSTRAINT "sub_companies_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_cost_centers" ADD CONSTRAINT "user_cost_centers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_cost_centers" ADD CONSTRAINT "user_cost_centers_cost_center_id_cost_centers_id_fk" FOREIGN KEY ("cost_center_id") REFERENCES "public"."cost_centers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_sub_companies" ADD CONSTRAINT "user_sub_companies_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_sub_companies" ADD CONSTRAINT "user_sub_companies_sub_company_id_sub_companies_id_fk" FOREIGN KEY ("sub_company_id") REFERENCES "public"."sub_companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "client_operators_uq" ON "client_operators" USING btree ("client_id","operator_id");--> statement-breakpoint
CREATE UNIQUE INDEX "clients_company_name_uq" ON "clients" USING btree (lower("company_name"));--> statement-breakpoint
CREATE UNIQUE INDEX "clients_business_id_uq" ON "clients" USING btree ("business_id");--> statement-breakpoint
CREATE UNIQUE INDEX "cost_centers_client_name_uq" ON "cost_centers" USING btree ("client_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "sub_companies_client_name_uq" ON "sub_companies" USING btree ("client_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_uq" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "users_client_idx" ON "users" USING btree ("client_id");