-- The format an invoice arrived in (issue 24): a PDF of a modelled layout or a Finvoice e-invoice.
ALTER TABLE "invoices" ADD COLUMN "format" text DEFAULT 'pdf' NOT NULL;
