CREATE TABLE "optimization_marks" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"subscription_id" integer NOT NULL,
	"kind" text NOT NULL,
	"from_plan_id" integer,
	"to_plan_id" integer,
	"monthly_saving_cents" integer NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"marked_by" integer,
	"marked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"realised_month" date,
	"realised_at" timestamp with time zone,
	"cancelled" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "optimization_results" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"run_id" integer NOT NULL,
	"subscription_id" integer NOT NULL,
	"operator_id" integer NOT NULL,
	"kind" text NOT NULL,
	"current_plan_id" integer,
	"best_plan_id" integer,
	"current_monthly_cents" integer NOT NULL,
	"best_monthly_cents" integer NOT NULL,
	"monthly_saving_cents" integer NOT NULL,
	"reason_code" text NOT NULL,
	"reason_params" jsonb NOT NULL,
	"months_used" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "optimization_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"trigger" text NOT NULL,
	"requested_by" integer,
	"job_id" text,
	"subscriptions" integer,
	"findings" integer,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "optimization_months" integer DEFAULT 6 NOT NULL;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "unused_month_count" integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "optimization_marks" ADD CONSTRAINT "optimization_marks_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "optimization_marks" ADD CONSTRAINT "optimization_marks_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "optimization_marks" ADD CONSTRAINT "optimization_marks_from_plan_id_plans_id_fk" FOREIGN KEY ("from_plan_id") REFERENCES "public"."plans"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "optimization_marks" ADD CONSTRAINT "optimization_marks_to_plan_id_plans_id_fk" FOREIGN KEY ("to_plan_id") REFERENCES "public"."plans"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "optimization_marks" ADD CONSTRAINT "optimization_marks_marked_by_users_id_fk" FOREIGN KEY ("marked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "optimization_results" ADD CONSTRAINT "optimization_results_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "optimization_results" ADD CONSTRAINT "optimization_results_run_id_optimization_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."optimization_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "optimization_results" ADD CONSTRAINT "optimization_results_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "optimization_results" ADD CONSTRAINT "optimization_results_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "optimization_results" ADD CONSTRAINT "optimization_results_current_plan_id_plans_id_fk" FOREIGN KEY ("current_plan_id") REFERENCES "public"."plans"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "optimization_results" ADD CONSTRAINT "optimization_results_best_plan_id_plans_id_fk" FOREIGN KEY ("best_plan_id") REFERENCES "public"."plans"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "optimization_runs" ADD CONSTRAINT "optimization_runs_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "optimization_runs" ADD CONSTRAINT "optimization_runs_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "optimization_marks_open_uq" ON "optimization_marks" USING btree ("subscription_id") WHERE "optimization_marks"."status" = 'open' and not "optimization_marks"."cancelled";--> statement-breakpoint
CREATE INDEX "optimization_marks_client_idx" ON "optimization_marks" USING btree ("client_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "optimization_results_subscription_uq" ON "optimization_results" USING btree ("subscription_id");--> statement-breakpoint
CREATE INDEX "optimization_results_client_kind_idx" ON "optimization_results" USING btree ("client_id","kind","monthly_saving_cents");--> statement-breakpoint
CREATE INDEX "optimization_runs_client_idx" ON "optimization_runs" USING btree ("client_id","id");