-- Bytes of upload requests that no invoice keeps (refused files): counted against the client's
-- daily upload budget with the invoices' file_size (issue 23).
CREATE TABLE "upload_receipts" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"bytes" integer NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "upload_receipts" ADD CONSTRAINT "upload_receipts_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "upload_receipts_client_idx" ON "upload_receipts" USING btree ("client_id","received_at");
