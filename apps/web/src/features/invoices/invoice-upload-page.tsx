import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, Card, Flex, Select, Space, Typography, Upload } from 'antd';
import { CloudUploadOutlined, InboxOutlined } from '@ant-design/icons';
import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { INVOICE_MAX_FILES, isProviderRole, type Invoice } from '@kulu/shared';
import { ClientSelect } from '../../components/client-select';
import { PageHeading } from '../../components/page-heading';
import { useSession } from '../../lib/session';
import { useChosenClient } from '../../lib/chosen-client';
import { subCompanyOptionsQuery } from '../../lib/organization-api';
import { INVOICES_KEY, invoiceQuery } from './api';
import { InvoiceTable } from './invoice-table';
import { invoiceReasonText, reasonText } from './labels';
import {
  applyResults,
  checkFile,
  fileHead,
  filePercents,
  isSendable,
  nextBatch,
  refuseBatch,
  type UploadItem,
} from './upload-files';
import { fileStateOf, UploadFileList } from './upload-file-list';
import { uploadInvoiceFiles } from './upload-request';

let uidSeq = 0;
const newItem = (file: File): UploadItem => {
  const code = checkFile(file);
  uidSeq += 1;
  return {
    uid: `f${uidSeq}`,
    file,
    status: code ? 'refused' : 'pending',
    percent: 0,
    code: code ?? undefined,
  };
};

/**
 * Upload Invoice (spec §2): choose or drop PDFs or Finvoice e-invoices, upload all in one request with a progress bar
 * per file, follow each parse to "uploaded" or "failed", and the client's invoice table.
 */
export function InvoiceUploadPage() {
  const { t } = useTranslation();
  const session = useSession();
  const queryClient = useQueryClient();
  const provider = session ? isProviderRole(session.roleID) : false;
  const [clientId, setClientId] = useChosenClient();
  const [items, setItems] = useState<UploadItem[]>([]);
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);
  const [subCompanyId, setSubCompanyId] = useState<number | undefined>();
  const allSubCompanies = useQuery(subCompanyOptionsQuery());
  const subCompanyOptions = (allSubCompanies.data ?? []).filter((s) => !provider || s.clientId === clientId);

  // The invoices of accepted files, polled until their parse is over.
  const accepted = items.filter((i) => i.invoiceId !== undefined).map((i) => i.invoiceId as number);
  const invoiceResults = useQueries({ queries: accepted.map((id) => invoiceQuery(id)) });
  const invoices = useMemo(() => {
    const map = new Map<number, Invoice>();
    for (const r of invoiceResults) if (r.data) map.set(r.data.id, r.data);
    return map;
  }, [invoiceResults]);

  // A parse that ends refreshes the table.
  const finished = [...invoices.values()].filter((i) => i.uploadState !== 'in_progress').length;
  const lastFinished = useRef(0);
  useEffect(() => {
    if (finished !== lastFinished.current) {
      lastFinished.current = finished;
      void queryClient.invalidateQueries({ queryKey: [...INVOICES_KEY, 'list'] });
    }
  }, [finished, queryClient]);

  const addFile = (file: File) => {
    const item = newItem(file);
    setItems((prev) => [...prev, item]);
    if (item.status !== 'pending') return;
    // Judged by content, as the API does: its first KiB, read at once.
    void fileHead(file).then(
      (head) => {
        const code = checkFile(file, head);
        if (code) {
          setItems((prev) =>
            prev.map((i) =>
              i.uid === item.uid && i.status === 'pending' ? { ...i, status: 'refused', code } : i,
            ),
          );
        }
      },
      () => {},
    );
  };

  const uploadAll = async () => {
    if (provider && !clientId) return;
    setSending(true);
    let current = items;
    const update = (fn: (prev: UploadItem[]) => UploadItem[]) => {
      current = fn(current);
      setItems(current);
    };
    try {
      for (let batch = nextBatch(current); batch.length; batch = nextBatch(current)) {
        const uids = batch.map((b) => b.uid);
        update((prev) =>
          prev.map((i) =>
            uids.includes(i.uid) ? { ...i, status: 'uploading', percent: 0, code: undefined } : i,
          ),
        );
        const sizes = batch.map((b) => b.file.size);
        const answer = await uploadInvoiceFiles(
          batch.map((b) => b.file),
          { clientId: provider ? clientId : undefined, subCompanyId },
          (loaded, total) => {
            const percents = filePercents(sizes, loaded, total);
            // Hold at 99 until the server has answered.
            update((prev) =>
              prev.map((i) => {
                const k = uids.indexOf(i.uid);
                return k < 0 ? i : { ...i, percent: Math.min(99, percents[k]) };
              }),
            );
          },
        );
        update((prev) =>
          answer.results
            ? applyResults(prev, uids, answer.results)
            : refuseBatch(prev, uids, answer.code ?? 'internal', answer.message),
        );
        // A refusal of the whole request would repeat for the next batch.
        if (!answer.results) break;
      }
    } finally {
      setSending(false);
      setSent(true);
      void queryClient.invalidateQueries({ queryKey: [...INVOICES_KEY, 'list'] });
    }
  };

  const sendable = items.filter(isSendable).length;
  const states = items.map((i) => fileStateOf(i, i.invoiceId ? invoices.get(i.invoiceId) : undefined));
  const count = (s: string) => states.filter((x) => x === s).length;
  const failedItems = items.filter((_, k) => states[k] === 'refused' || states[k] === 'failed');
  const summary = {
    uploaded: count('uploaded'),
    processing: count('in_progress'),
    failed: failedItems.length,
  };

  return (
    <div data-testid="invoice-upload-page">
      <PageHeading title={t('menu.invoiceUpload')} />
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <Card>
          <Space orientation="vertical" size={16} style={{ width: '100%' }}>
            {provider && (
              <Flex align="center" gap={12} wrap>
                <Typography.Text strong>{t('invoices.upload.client')}</Typography.Text>
                <ClientSelect
                  value={clientId}
                  onChange={(v) => {
                    setClientId(v);
                    setSubCompanyId(undefined);
                  }}
                  testId="upload-client"
                  placeholder={t('invoices.upload.chooseClient')}
                  minWidth={300}
                  aria-label={t('invoices.upload.client')}
                />
              </Flex>
            )}
            {subCompanyOptions.length > 1 && (
              <Flex align="center" gap={12} wrap>
                <Typography.Text strong>{t('invoices.upload.subCompany')}</Typography.Text>
                <Select<number>
                  allowClear
                  style={{ minWidth: 'min(300px, 100%)' }}
                  placeholder={t('invoices.upload.chooseSubCompany')}
                  value={subCompanyId}
                  onChange={(v) => setSubCompanyId(v)}
                  options={subCompanyOptions.map((c) => ({ value: c.id, label: c.name }))}
                  data-testid="upload-sub-company"
                  aria-label={t('invoices.upload.subCompany')}
                />
              </Flex>
            )}
            <Upload.Dragger
              multiple
              showUploadList={false}
              beforeUpload={(file) => {
                addFile(file);
                return Upload.LIST_IGNORE;
              }}
              data-testid="upload-dragger"
            >
              <p className="ant-upload-drag-icon">
                <InboxOutlined />
              </p>
              <p className="ant-upload-text">{t('invoices.upload.drop')}</p>
              <p className="ant-upload-hint">{t('invoices.upload.hint', { files: INVOICE_MAX_FILES })}</p>
            </Upload.Dragger>
            {items.length > 0 && (
              <UploadFileList
                items={items}
                invoices={invoices}
                onRemove={(uid) => setItems((prev) => prev.filter((i) => i.uid !== uid))}
              />
            )}
            <Flex gap={12} wrap align="center">
              <Button
                type="primary"
                icon={<CloudUploadOutlined />}
                disabled={!sendable || (provider && !clientId)}
                loading={sending}
                onClick={() => void uploadAll()}
                data-testid="upload-all"
              >
                {t('invoices.upload.uploadAll')}
              </Button>
              <Button
                disabled={sending || !items.length}
                onClick={() => {
                  setItems([]);
                  setSent(false);
                }}
                data-testid="upload-clear"
              >
                {t('invoices.upload.clear')}
              </Button>
              {provider && !clientId && (
                <Typography.Text type="secondary">{t('invoices.upload.clientFirst')}</Typography.Text>
              )}
            </Flex>
            {sent && items.length > 0 && (
              <Alert
                type={
                  summary.failed ? (summary.uploaded || summary.processing ? 'warning' : 'error') : 'success'
                }
                showIcon
                data-testid="upload-summary"
                title={
                  <span data-testid="upload-summary-counts">
                    {[
                      t('invoices.summary.uploaded', { count: summary.uploaded }),
                      summary.processing
                        ? t('invoices.summary.processing', { count: summary.processing })
                        : '',
                      t('invoices.summary.failed', { count: summary.failed }),
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  </span>
                }
                description={
                  failedItems.length ? (
                    <ul style={{ margin: 0, paddingInlineStart: 20 }}>
                      {failedItems.map((i) => {
                        const inv = i.invoiceId ? invoices.get(i.invoiceId) : undefined;
                        return (
                          <li key={i.uid}>
                            {i.file.name}:{' '}
                            {inv ? invoiceReasonText(t, inv) : reasonText(t, i.code, i.message)}
                          </li>
                        );
                      })}
                    </ul>
                  ) : undefined
                }
              />
            )}
          </Space>
        </Card>
        <InvoiceTable clientId={provider ? clientId : undefined} showClient={provider && !clientId} />
      </Space>
    </div>
  );
}
