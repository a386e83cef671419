import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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
  messageAnswer,
  type MessageCode,
} from '@kulu/shared';
import { AppError } from '../../lib/errors.js';
import { PhaseClock } from '../../lib/phases.js';
import { deleteInvoice } from './delete.service.js';
import { confirmInvoiceBuyer, readInvoiceAgain } from './confirm-buyer.service.js';
import { currentUser } from '../../plugins/access.js';
import { requestLanguage } from '../../plugins/errors.js';
import { sendAttachment } from '../../lib/files.js';
import {
  getInvoice,
  invoiceFile,
  listInvoices,
  listInvoiceSubscriptions,
  admitUpload,
  discardReceived,
  receiveInvoiceFile,
  recordRefusedBytes,
  resolveUploadTarget,
  uploadInvoices,
  type IncomingFile,
  type UploadTarget,
} from './invoices.service.js';
import { declareRoutes } from '../../lib/routes.js';
import type { Deps } from '../../types.js';
import { UploadsInFlight, type UploadHold } from './upload-shares.js';

const optId = idSchema.optional();

/** The target of an upload, named in the query so that it is checked before the body is read. */
const uploadQuery = z.object({ clientId: optId, subCompanyId: optId }).strict();

/** A refused upload: the API's error shape, with the per-file answers when its files were read. */
const uploadRefusalSchema = z
  .object({
    statusCode: z.number().int(),
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
  })
  .extend(invoiceUploadResponseSchema.partial().shape);
const refusal = (when: string) => uploadRefusalSchema.describe(when);

/** The largest upload body: the most files at their largest, with room for the multipart framing. */
const MAX_UPLOAD_REQUEST_BYTES = INVOICE_MAX_FILES * INVOICE_MAX_BYTES + 1024 * 1024;

interface UploadGate {
  target: UploadTarget;
  /** The bytes this request has received, held of its client's share and the instance's allowance. */
  hold: UploadHold;
  /** Cuts the request off past UPLOAD_MAX_SECONDS (cleared once its body has arrived). */
  deadline: NodeJS.Timeout;
  /** Where the request's time went (logged at debug level when it is answered). */
  clock: PhaseClock;
}

/** Refusal status when no file of a request was accepted. */
const STATUS_OF: Partial<Record<MessageCode, number>> = {
  invoiceTooLarge: 413,
  invoiceNotPdf: 400,
  invoiceAlreadyParsed: 409,
  invoiceSameFileFailed: 409,
  previousParseRunning: 409,
  // Server-side failures when no file of the request was stored (nothing half done).
  invoiceFileRefused: 503,
  internal: 503,
};

/** POST /api/invoices: everything that can refuse the whole upload before its body is read, then its files. */
function uploadRoute(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { deps } = app;
  const { db } = deps.database;
  const access = { permission: 'invoices.upload' } as const;
  const tags = ['invoices'];

  // Upload bytes this instance is receiving, counted as they arrive, in all and per client.
  const MB = 1024 * 1024;
  const inFlight = new UploadsInFlight({
    allBytes: deps.config.UPLOAD_IN_FLIGHT_MB * MB,
    perClientBytes: deps.config.UPLOAD_IN_FLIGHT_PER_CLIENT_MB * MB,
  });
  const gates = new WeakMap<FastifyRequest, UploadGate>();
  const release = (req: FastifyRequest) => {
    const gate = gates.get(req);
    if (!gate) return;
    clearTimeout(gate.deadline);
    gate.hold.release();
  };

  r.post(
    '/api/invoices',
    {
      config: access,
      schema: {
        tags,
        summary:
          'Upload invoice PDFs (multipart: files; clientId for provider users and subCompanyId in the query)',
        consumes: ['multipart/form-data'],
        querystring: uploadQuery,
        response: {
          200: invoiceUploadResponseSchema,
          400: refusal('No file, a bad target, or no file accepted (each file with its reason)'),
          404: refusal("The client or sub-company is not in the caller's scope"),
          409: refusal("The client's previous upload is still parsing, or no file accepted"),
          413: refusal("The request is too large, or the client's storage is full"),
          429: refusal(
            "The client's daily upload budget or parse time of the hour is spent (before the body " +
              "is read), or the bytes its uploads in progress have sent fill the client's share or " +
              "this instance's allowance (before the body is read, or as it passes them); with " +
              'Retry-After',
          ),
          503: refusal('No file could be stored'),
        },
      },
      // Everything that can refuse the whole upload is decided before its body is read: the
      // target in the caller's scope, the client's running parse, quota, daily budget, parse time
      // of the hour, and the bytes the client's uploads and this instance have already received.
      preHandler: async (req) => {
        const clock = new PhaseClock();
        // The target first: another client's or sub-company's id is a 404 whatever the body.
        const target = await resolveUploadTarget(db, req.scope, req.query);
        if (!req.isMultipart()) throw new AppError(400, 'validation', { files: 'required' });
        const declared = Number(req.headers['content-length'] ?? MAX_UPLOAD_REQUEST_BYTES);
        if (!Number.isFinite(declared) || declared > MAX_UPLOAD_REQUEST_BYTES) {
          throw new AppError(413, 'invoiceTooLarge');
        }
        await admitUpload(deps, target, {
          userId: currentUser(req).id,
          bytes: declared,
          receiving: inFlight.declaredBy(target.clientId),
        });
        const hold = inFlight.admit(target.clientId, declared);
        // An upload too slow to arrive in UPLOAD_MAX_SECONDS is cut off (its parts then fail and
        // what it streamed is removed): it holds the bytes in flight no longer, and the sweep of
        // files no row names (lib/files.ts) never meets a file of an upload still arriving.
        const deadline = setTimeout(() => req.raw.destroy(), deps.config.UPLOAD_MAX_SECONDS * 1000);
        deadline.unref();
        clock.lap('admit');
        gates.set(req, { target, hold, deadline, clock });
      },
      onResponse: async (req) => release(req),
      onRequestAbort: async (req) => release(req),
    },
    async (req, reply) => answerUpload(deps, req, reply as FastifyReply, gates.get(req)!),
  );
}

/** The upload's body: each file streamed into storage, then stored as an invoice and its parse queued. */
async function answerUpload(deps: Deps, req: FastifyRequest, reply: FastifyReply, gate: UploadGate) {
  const { db } = deps.database;
  const me = currentUser(req);
  const lang = requestLanguage(req);
  const { target, clock, hold: received } = gate;
  const incoming: IncomingFile[] = [];
  // Every file byte taken from the body (`received.bytes`), held of the client's share as it
  // arrives: what no invoice keeps counts against the client's daily upload budget all the
  // same (a refused copy was written to storage, then dropped).
  try {
    // A file over the limit is answered per file ("too large"), the others still go through
    // (`throwFileSizeLimit` is honoured by parts() at run time; its types omit it). Each file
    // streams into storage as it arrives; the request never holds a whole file.
    const partOptions = {
      limits: { fileSize: INVOICE_MAX_BYTES, files: INVOICE_MAX_FILES, fields: 10, fieldSize: 1000 },
      throwFileSizeLimit: false,
    };
    for await (const part of req.parts(partOptions)) {
      if (part.type === 'field') {
        // The target comes with the query; a form field naming another one is a mistake.
        const value = String(part.value);
        if (part.fieldname === 'clientId' && value !== String(target.clientId)) {
          throw new AppError(400, 'validation', { clientId: 'invalid' });
        }
        if (part.fieldname === 'subCompanyId' && value !== String(target.subCompanyId ?? '')) {
          throw new AppError(400, 'validation', { subCompanyId: 'invalid' });
        }
        continue;
      }
      clock.lap('wait'); // for the part's first bytes
      incoming.push(await receiveInvoiceFile(db, target, part.filename, part.file, received));
      clock.lap('receive');
    }
  } catch (e) {
    // Nothing of a request that breaks off midway (or is cut off) is kept.
    clearTimeout(gate.deadline);
    await discardReceived(db, incoming);
    await recordRefusedBytes(deps, target.clientId, received.bytes).catch(() => {});
    if (e instanceof AppError) throw e;
    throw new AppError(400, 'validation', { files: 'invalid' });
  }
  clearTimeout(gate.deadline);
  if (!incoming.length) throw new AppError(400, 'validation', { files: 'required' });
  clock.lap('wait');
  const results = await uploadInvoices(deps, target, incoming, { userId: me.id, lang, clock });
  // One result per file, in order: an accepted file counts as its invoice's file_size.
  const kept = incoming.reduce(
    (sum, f, i) => sum + (results[i]?.status === 'accepted' && 'stored' in f ? f.stored.size : 0),
    0,
  );
  // The files are already answered for: a receipt that cannot be written is no 5xx.
  await recordRefusedBytes(deps, target.clientId, received.bytes - kept).catch(() => {});
  clock.lap('receipt');
  req.log.debug(
    { invoiceIds: results.flatMap((x) => x.invoiceId ?? []), bytes: received.bytes, ...clock.fields() },
    'invoice upload phases',
  );
  const accepted = results.filter((x) => x.status === 'accepted').length;
  const body = { results, accepted, refused: results.length - accepted };
  if (accepted) return body;
  const code = results[0].code as MessageCode;
  const statusCode = STATUS_OF[code] ?? 400;
  return reply.code(statusCode).send({ statusCode, code, message: message(code, lang), ...body });
}

export async function invoicesRoutes(app: FastifyInstance) {
  uploadRoute(app);
  const { deps } = app;
  const { db } = deps.database;
  const access = { permission: 'invoices.upload' } as const;
  const route = declareRoutes(app, ['invoices']);

  route.get(
    '/api/invoices',
    access,
    { querystring: invoiceListQuerySchema, response: { 200: invoiceListSchema } },
    async (req) => listInvoices(db, req.scope, req.query, requestLanguage(req)),
  );

  route.get(
    '/api/invoices/:id',
    access,
    {
      summary: 'One invoice: header, totals, cost by category and the invoice-level lines',
      params: idParams,
      response: { 200: invoiceDetailSchema },
    },
    async (req) => getInvoice(db, req.scope, req.params.id, requestLanguage(req)),
  );

  route.delete(
    '/api/invoices/:id',
    'invoices.delete',
    {
      summary:
        'Delete an invoice (also a failed one): its lines, facts, the subscriptions only it showed, ' +
        'its file; logged, and the client re-optimized',
      params: idParams,
      response: { 200: invoiceDeletedSchema },
    },
    async (req) => {
      const removed = await deleteInvoice(deps, req.scope, req.params.id, currentUser(req).id);
      const code = 'invoiceDeleted' as const;
      return { code, message: message(code, requestLanguage(req)), removed };
    },
  );

  route.post(
    '/api/invoices/:id/confirm-buyer',
    'invoices.delete',
    {
      summary:
        "Confirm that an invoice refused for its buyer's name (no business id printed) is the " +
        "company's all the same: it is read again without the name check (issue 37)",
      params: idParams,
      response: {
        200: messageAnswer,
        404: messageAnswer.describe("Not an invoice of the caller's scope"),
        409: messageAnswer.describe('Not refused for its buyer, or its file is no longer kept'),
      },
    },
    async (req) => {
      await confirmInvoiceBuyer(deps, req.scope, req.params.id, currentUser(req).id);
      const code = 'invoiceBuyerConfirmed' as const;
      return { code, message: message(code, requestLanguage(req)) };
    },
  );

  route.post(
    '/api/invoices/:id/read-again',
    'invoices.upload',
    {
      summary:
        'Read again an invoice refused because the company had no contract with its operator, once ' +
        'the contract is added (PUT /api/clients/:clientId/operator-contracts/:operatorId; issue 38)',
      params: idParams,
      response: {
        200: messageAnswer,
        404: messageAnswer.describe("Not an invoice of the caller's scope"),
        409: messageAnswer.describe(
          'Not refused for a missing operator contract, still no contract, or its file is no longer kept',
        ),
      },
    },
    async (req) => {
      await readInvoiceAgain(deps, req.scope, req.params.id, currentUser(req).id);
      const code = 'invoiceReadAgain' as const;
      return { code, message: message(code, requestLanguage(req)) };
    },
  );

  route.get(
    '/api/invoices/:id/subscriptions',
    access,
    {
      summary: 'The subscriptions on an invoice, paged, each with its total and its lines',
      params: idParams,
      querystring: invoiceSubscriptionsQuerySchema,
      response: { 200: invoiceSubscriptionListSchema },
    },
    async (req) => listInvoiceSubscriptions(db, req.scope, req.params.id, req.query),
  );

  route.get('/api/invoices/:id/file', access, { params: idParams }, async (req, reply) => {
    const f = await invoiceFile(db, req.scope, req.params.id);
    return sendAttachment(reply, f);
  });
}
