-- A PDF that prints no business id and names another buyer is refused (issue 37, item 11); a
-- company admin may confirm that it is the company's invoice all the same: who confirmed and when
-- are kept on the invoice, and its next import takes it without the buyer's name check.
ALTER TABLE "invoices" ADD COLUMN "buyer_confirmed_by" integer;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "buyer_confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_buyer_confirmed_by_users_id_fk" FOREIGN KEY ("buyer_confirmed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
