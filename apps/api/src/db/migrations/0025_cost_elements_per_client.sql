-- A name an invoice brings that no cost element has yet was added to the provider's shared list, so
-- one upload could add thousands of tenant-chosen names to it (issue 37, item 7). A name a
-- company's own upload brings is now that company's (client_id), at most CLIENT_COST_ELEMENTS_MAX
-- of them; a name is unique per operator among the shared ones and among each company's own.
ALTER TABLE "cost_elements" ADD COLUMN "client_id" integer;--> statement-breakpoint
ALTER TABLE "cost_elements" ADD CONSTRAINT "cost_elements_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
DROP INDEX "cost_elements_name_uq";--> statement-breakpoint
CREATE UNIQUE INDEX "cost_elements_name_uq" ON "cost_elements" USING btree ("operator_id",coalesce("client_id", 0),lower("name"));--> statement-breakpoint
CREATE INDEX "cost_elements_client_idx" ON "cost_elements" USING btree ("client_id");
