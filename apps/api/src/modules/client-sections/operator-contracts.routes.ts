import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  DOCUMENT_MAX_BYTES,
  idSchema,
  message,
  operatorDocumentDeletedSchema,
  operatorDocumentListSchema,
  operatorDocumentSavedSchema,
} from '@kulu/shared';
import { AppError } from '../../lib/errors.js';
import { registerResource } from '../../lib/resource/resource.routes.js';
import { getRow } from '../../lib/resource/resource.service.js';
import { requestLanguage } from '../../plugins/errors.js';
import { sendAttachment } from '../../lib/files.js';
import {
  deleteDocument,
  documentContent,
  getDocument,
  listDocuments,
  operatorContractsDef,
  uploadDocument,
  type DocumentUpload,
} from './operator-contracts.service.js';
import { callerOf } from '../../plugins/access.js';
import { declareRoutes } from '../../lib/routes.js';

/**
 * The multipart fields of a document upload: the file (any field name) and `name` (the document
 * name; when left out, the file's name without its extension). Too large → 400 `documentTooLarge`,
 * a broken request → 400 `documentUploadFailed`.
 */
async function documentUpload(req: FastifyRequest): Promise<DocumentUpload> {
  if (!req.isMultipart()) throw new AppError(400, 'validation', { file: 'required' });
  let file: { name: string; data: Buffer } | null = null;
  let name: string | undefined;
  try {
    for await (const part of req.parts({
      limits: { fileSize: DOCUMENT_MAX_BYTES, files: 1, fields: 5, fieldSize: 1024 },
    })) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        if (part.file.truncated) throw new AppError(400, 'documentTooLarge', { file: 'invalid' });
        file = { name: part.filename, data };
      } else if (part.fieldname === 'name' && typeof part.value === 'string') {
        name = part.value;
      }
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(400, 'documentTooLarge', { file: 'invalid' });
    throw new AppError(400, 'documentUploadFailed');
  }
  if (!file) throw new AppError(400, 'validation', { file: 'required' });
  const base = (file.name.split(/[\\/]/).pop() ?? '').replace(/\.[^.]*$/, '');
  return { name: (name ?? base).trim(), fileName: file.name, data: file.data };
}

/**
 * Operator contract details of a client and their documents (spec §3; docs/decisions/0011-operator-contracts.md).
 * Permission `clientMasters.operatorContracts`: the provider's admins and consultants hold it
 * (a consultant sees only assigned companies), a company admin holds it for its own client
 * (My Profile), a client user only when given it. Which client is the Scope's: the client, the
 * operator contract and the document of the path are checked before the body is read, so
 * another client's ids answer 404 whatever the body.
 */
export async function operatorContractsRoutes(app: FastifyInstance) {
  const { db } = app.deps.database;
  const config = { permission: 'clientMasters.operatorContracts', client: 'clientId' } as const;
  const tags = ['operator contracts'];
  const route = declareRoutes(app, tags);
  const contractParams = z.object({ clientId: idSchema, operatorId: idSchema });
  const documentParams = z.object({ clientId: idSchema, operatorId: idSchema, documentId: idSchema });
  const base = '/api/clients/:clientId/operator-contracts';

  // The client (the access plugin, `config.client`), the operator contract and the document of
  // a document route's path are checked before the handler runs, so another client's ids answer
  // 404 whatever the request (the multipart stream is not read). Malformed ids answer 400 first:
  // that answer is the same for every id, so it tells nothing about other clients.
  const documents = `${base}/:operatorId/documents`;
  app.addHook('preValidation', async (req) => {
    if (!req.routeOptions.url?.startsWith(documents)) return;
    const params = req.params as Record<string, unknown>;
    const ids = ['clientId', 'operatorId', 'documentId']
      .filter((k) => k in params)
      .map((k) => idSchema.safeParse(params[k]));
    if (!ids.every((r) => r.success)) return;
    const [clientId, operatorId, documentId] = ids.map((r) => r.data!);
    if (documentId != null) await getDocument(db, clientId, operatorId, documentId);
    else await getRow(db, operatorContractsDef, callerOf(req), operatorId, clientId);
  });

  // The contracts: list (with the operators not yet in use), get and PUT by operator (an upsert).
  registerResource(app, operatorContractsDef, {
    base,
    tags,
    unpaged: true,
    without: ['export', 'options', 'delete'],
    summaries: {
      list: "A client's operator contracts by operator name, and the operators it has none with",
      get: "The client's contract with an operator",
      update:
        'Save the contract details with an operator (adds the contract when there is none); the end date reminder lies between start and end',
    },
  });

  route.get(
    `${base}/:operatorId/documents`,
    config,
    {
      summary: "The documents of the client's operator contract, by name",
      params: contractParams,
      response: { 200: operatorDocumentListSchema },
    },
    async (req) => ({
      items: await listDocuments(db, req.params.clientId, req.params.operatorId),
    }),
  );

  route.post(
    `${base}/:operatorId/documents`,
    config,
    {
      summary:
        'Upload a document (multipart: file, name): doc, docx, xls, xlsx, csv or pdf by content, at most 10 MB, name alphanumeric and unique',
      consumes: ['multipart/form-data'],
      params: contractParams,
      response: { 201: operatorDocumentSavedSchema },
    },
    async (req, reply) => {
      const { clientId, operatorId } = req.params;
      const upload = await documentUpload(req);
      const document = await uploadDocument(db, callerOf(req), clientId, operatorId, upload);
      const code = 'documentUploaded' as const;
      return reply.code(201).send({ document, code, message: message(code, requestLanguage(req)) });
    },
  );

  route.get(
    `${base}/:operatorId/documents/:documentId`,
    config,
    { summary: 'Download a document (attachment)', params: documentParams },
    async (req, reply) => {
      const { clientId, operatorId, documentId } = req.params;
      const f = await documentContent(db, clientId, operatorId, documentId);
      return sendAttachment(reply.header('cache-control', 'private, no-store'), f);
    },
  );

  route.delete(
    `${base}/:operatorId/documents/:documentId`,
    config,
    {
      summary: 'Delete a document',
      params: documentParams,
      response: { 200: operatorDocumentDeletedSchema },
    },
    async (req) => {
      const { clientId, operatorId, documentId } = req.params;
      await deleteDocument(db, callerOf(req), clientId, operatorId, documentId);
      const code = 'documentDeleted' as const;
      return { code, message: message(code, requestLanguage(req)) };
    },
  );
}
