CREATE TABLE "report_export_parts" (
	"export_id" integer NOT NULL,
	"seq" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "report_export_parts_export_id_seq_pk" PRIMARY KEY("export_id","seq")
);
--> statement-breakpoint
CREATE TABLE "report_exports" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"client_id" integer NOT NULL,
	"sub_company_id" integer,
	"kind" text NOT NULL,
	"from_month" text,
	"to_month" text,
	"operator_id" integer,
	"lang" text NOT NULL,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"error_code" text,
	"row_count" integer,
	"size_bytes" integer,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ready_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	CONSTRAINT "report_exports_ready_ck" CHECK ("report_exports"."status" <> 'ready' or "report_exports"."ready_at" is not null)
);
--> statement-breakpoint
ALTER TABLE "report_export_parts" ADD CONSTRAINT "report_export_parts_export_id_report_exports_id_fk" FOREIGN KEY ("export_id") REFERENCES "public"."report_exports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_exports" ADD CONSTRAINT "report_exports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_exports" ADD CONSTRAINT "report_exports_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_exports" ADD CONSTRAINT "report_exports_sub_company_id_sub_companies_id_fk" FOREIGN KEY ("sub_company_id") REFERENCES "public"."sub_companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_exports_user_idx" ON "report_exports" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "report_exports_expires_idx" ON "report_exports" USING btree ("expires_at");