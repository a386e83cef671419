import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  idParams,
  idSchema,
  INVOICE_MAX_BYTES,
  INVOICE_MAX_FILES,
  invoiceDeletedSchema,
  invoiceDetailSchema,
  invoiceListQuerySchema,
  invoiceListSchema,
  invoiceSubscriptionListSchema,
  invoiceSubscriptionsQuerySchema,
  invoiceUploadResponseSchema,
  message,
  type MessageCode,
} from '@kulu/shared';
import { AppError } from '../../lib/errors.js';
import { deleteInvoice } from './delete.service.js';
import { currentUser } from '../../plugins/access.js';
import { requestLanguage } from '../../plugins/errors.js';
import {
  getInvoice,
  invoiceFile,
  listInvoices,
  listInvoiceSubscriptions,
  resolveUploadTarget,
  uploadInvoices,
  type IncomingFile,
} from './invoices.service.js';

const optId = idSchema.optional();

/** Refusal status when no file of a request was accepted. */
const STATUS_OF: Partial<Record<MessageCode, number>> = {
  invoiceTooLarge: 413,
  invoiceNotPdf: 400,
  invoiceAlreadyParsed: 409,
  previousParseRunning: 409,
  parseBudgetExhausted: 429,
  // Server-side failures when no file of the request was stored (nothing half done).
  invoiceFileRefused: 503,
  internal: 503,
};

export async function invoicesRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { deps } = app;
  const { db } = deps.database;
  const access = { permission: 'invoices.upload' } as const;
  const tags = ['invoices'];

  r.post(
    '/api/invoices',
    {
      config: access,
      schema: {
        tags,
        summary: 'Upload invoice PDFs (multipart: files, and clientId for provider users, subCompanyId)',
        consumes: ['multipart/form-data'],
        response: { 200: invoiceUploadResponseSchema },
      },
    },
    async (req, reply) => {
      const me = currentUser(req);
      const lang = requestLanguage(req);
      const fields: Record<string, string> = {};
      const incoming: IncomingFile[] = [];
      if (!req.isMultipart()) throw new AppError(400, 'validation', { files: 'required' });
      try {
        // A file over the limit is answered per file ("too large"), the others still go through
        // (`throwFileSizeLimit` is honoured by parts() at run time; its types omit it).
        const partOptions = {
          limits: { fileSize: INVOICE_MAX_BYTES, files: INVOICE_MAX_FILES, fields: 10, fieldSize: 1000 },
          throwFileSizeLimit: false,
        };
        for await (const part of req.parts(partOptions)) {
          if (part.type === 'field') {
            fields[part.fieldname] = String(part.value);
            continue;
          }
          const data = await part.toBuffer();
          incoming.push({ fileName: part.filename, data: part.file.truncated ? null : data });
        }
      } catch (e) {
        if (e instanceof AppError) throw e;
        throw new AppError(400, 'validation', { files: 'invalid' });
      }
      if (!incoming.length) throw new AppError(400, 'validation', { files: 'required' });
      const ids = z.object({ clientId: optId, subCompanyId: optId }).safeParse(fields);
      if (!ids.success) {
        throw new AppError(
          400,
          'validation',
          Object.fromEntries(ids.error.issues.map((i) => [String(i.path[0]), 'invalid'])),
        );
      }
      const target = await resolveUploadTarget(db, req.scope, ids.data);
      const results = await uploadInvoices(deps, target, incoming, { userId: me.id, lang });
      const accepted = results.filter((x) => x.status === 'accepted').length;
      const body = { results, accepted, refused: results.length - accepted };
      if (accepted) return body;
      const code = results[0].code as MessageCode;
      const statusCode = STATUS_OF[code] ?? 400;
      return (reply as FastifyReply)
        .code(statusCode)
        .send({ statusCode, code, message: message(code, lang), ...body });
    },
  );

  r.get(
    '/api/invoices',
    {
      config: access,
      schema: { tags, querystring: invoiceListQuerySchema, response: { 200: invoiceListSchema } },
    },
    async (req) => listInvoices(db, req.scope, req.query, requestLanguage(req)),
  );

  r.get(
    '/api/invoices/:id',
    {
      config: access,
      schema: {
        tags,
        summary: 'One invoice: header, totals, cost by category and the invoice-level lines',
        params: idParams,
        response: { 200: invoiceDetailSchema },
      },
    },
    async (req) => getInvoice(db, req.scope, req.params.id, requestLanguage(req)),
  );

  r.delete(
    '/api/invoices/:id',
    {
      config: { permission: 'invoices.delete' },
      schema: {
        tags,
        summary:
          'Delete an invoice (also a failed one): its lines, facts, the subscriptions only it showed, ' +
          'its file; logged, and the client re-optimized',
        params: idParams,
        response: { 200: invoiceDeletedSchema },
      },
    },
    async (req) => {
      const removed = await deleteInvoice(deps, req.scope, req.params.id, currentUser(req).id);
      const code = 'invoiceDeleted' as const;
      return { code, message: message(code, requestLanguage(req)), removed };
    },
  );

  r.get(
    '/api/invoices/:id/subscriptions',
    {
      config: access,
      schema: {
        tags,
        summary: 'The subscriptions on an invoice, paged, each with its total and its lines',
        params: idParams,
        querystring: invoiceSubscriptionsQuerySchema,
        response: { 200: invoiceSubscriptionListSchema },
      },
    },
    async (req) => listInvoiceSubscriptions(db, req.scope, req.params.id, req.query),
  );

  r.get(
    '/api/invoices/:id/file',
    { config: access, schema: { tags, params: idParams } },
    async (req, reply) => {
      const f = await invoiceFile(db, req.scope, req.params.id);
      const ascii = f.name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
      return reply
        .header('content-type', 'application/pdf')
        .header(
          'content-disposition',
          `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(f.name)}`,
        )
        .header('x-content-type-options', 'nosniff')
        .send(f.data);
    },
  );
}
