import { useState } from 'react';
import { LoadError } from './load-error';
import {
  Alert,
  App,
  Button,
  Col,
  Collapse,
  DatePicker,
  Empty,
  Flex,
  Form,
  Input,
  Popconfirm,
  Row,
  Select,
  Skeleton,
  Space,
  Switch,
  Table,
  Tag,
  Typography,
  Upload,
  type FormRule,
} from 'antd';
import { DeleteOutlined, DownloadOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import {
  DOCUMENT_ACCEPT,
  DOCUMENT_MAX_BYTES,
  DOCUMENT_NAME_MAX,
  DOCUMENT_TYPES,
  documentNameFromFile,
  isDocumentName,
  isReminderBetween,
  type OperatorContract,
  type OperatorContractUpdate,
  type OperatorDocument,
} from '@kulu/shared';
import { AppModal } from './app-modal';
import { ApiRequestError } from '../lib/api-client';
import { errorText } from '../lib/form-rules';
import { useDownload } from '../lib/use-download';
import { useSaveError } from '../lib/use-save-error';
import { formatDate, orNone } from '../lib/format';
import {
  DAY_PICKER_FORMAT,
  dayProps,
  deleteDocument,
  documentsKey,
  documentsQuery,
  downloadDocument,
  operatorContractsKey,
  operatorContractsQuery,
  saveOperatorContract,
  uploadDocument,
} from '../lib/operator-contracts-api';
import './operator-contracts-texts';

type Lang = 'en' | 'fi';
const useLang = (): Lang => (useTranslation().i18n.language === 'fi' ? 'fi' : 'en');

/**
 * Operator contract details (spec §3 "Operator contract details"): per operator of the client its
 * sales contact, upload-invoice reminder, contract start and end, the end date reminder (between
 * start and end, mailed by a daily job) and its documents. The same section serves the provider
 * in Client Management and the company on My Profile; the API decides which client is whose.
 */
export function OperatorContractsSection({ clientId }: { clientId: number }) {
  const { t } = useTranslation();
  const lang = useLang();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const query = useQuery(operatorContractsQuery(clientId));
  const [adding, setAdding] = useState<number | null>(null);
  const [open, setOpen] = useState<string[] | null>(null);
  const add = useMutation({
    mutationFn: (operatorId: number) =>
      saveOperatorContract({ clientId, operatorId, body: { uploadInvoiceReminder: false } }),
    onSuccess: (r) => {
      void message.success(t(`errors.${r.code}`, { defaultValue: r.message }));
      setAdding(null);
      setOpen([String(r.contract.operatorId)]);
      void queryClient.invalidateQueries({ queryKey: operatorContractsKey(clientId) });
    },
    onError: (e) => void message.error(errorText(t, e)),
  });

  if (query.isError)
    return (
      <LoadError
        title={t('clients.operatorContracts.loadFailed')}
        query={query}
        retryLabel={t('clients.operatorContracts.retry')}
        testId="operator-contracts-error"
      />
    );
  if (!query.data) return <Skeleton active paragraph={{ rows: 6 }} />;

  const { items, available } = query.data;
  const adder = available.length > 0 && (
    <Space.Compact>
      <Select
        style={{ minWidth: 220 }}
        placeholder={t('clients.operatorContracts.chooseOperator')}
        value={adding ?? undefined}
        onChange={(v: number) => setAdding(v)}
        options={available.map((o) => ({ value: o.id, label: o.name }))}
        aria-label={t('clients.operatorContracts.chooseOperator')}
        data-testid="operator-contract-choose"
      />
      <Button
        icon={<PlusOutlined />}
        disabled={adding == null}
        loading={add.isPending}
        onClick={() => adding != null && add.mutate(adding)}
        data-testid="operator-contract-add"
      >
        {t('clients.operatorContracts.addOperator')}
      </Button>
    </Space.Compact>
  );

  return (
    <Flex vertical gap={16} data-testid="operator-contracts">
      {items.length === 0 ? (
        <Empty
          description={
            <>
              <div>{t('clients.operatorContracts.empty')}</div>
              {adder && (
                <Typography.Text type="secondary">{t('clients.operatorContracts.emptyHelp')}</Typography.Text>
              )}
            </>
          }
          data-testid="operator-contracts-empty"
        >
          {adder}
        </Empty>
      ) : (
        <>
          {adder && <Flex justify="flex-end">{adder}</Flex>}
          <Collapse
            activeKey={open ?? [String(items[0].operatorId)]}
            onChange={(keys) => setOpen(([] as string[]).concat(keys))}
            items={items.map((c) => ({
              key: String(c.operatorId),
              label: (
                <Flex gap={12} wrap align="center">
                  <Typography.Text strong>{c.operatorName}</Typography.Text>
                  <Typography.Text type="secondary">
                    {c.contractStartDate || c.contractEndDate
                      ? t('clients.operatorContracts.period', {
                          start: formatDate(c.contractStartDate, lang) || '…',
                          end: formatDate(c.contractEndDate, lang) || '…',
                        })
                      : t('clients.operatorContracts.noPeriod')}
                  </Typography.Text>
                  <Tag>{t('clients.operatorContracts.documentCount', { count: c.documentCount })}</Tag>
                </Flex>
              ),
              children: (
                <Flex vertical gap={24}>
                  <ContractForm clientId={clientId} contract={c} />
                  <DocumentsTable clientId={clientId} operatorId={c.operatorId} />
                </Flex>
              ),
            }))}
            data-testid="operator-contracts-list"
          />
        </>
      )}
    </Flex>
  );
}

type FormValues = Omit<OperatorContractUpdate, 'salesContactName'> & { salesContactName: string | null };

type DayField = 'contractStartDate' | 'contractEndDate' | 'contractEndReminder';
/** Whether a day of the contract fits its start and end dates. */
type DayCheck = (day: string, start: string | null, end: string | null) => boolean;

/** A contract day's rule, checked against the form's start and end dates (an empty day passes). */
const contractDayRule =
  (ok: DayCheck, message: string): FormRule =>
  ({ getFieldValue }) => ({
    validator: (_, v: string | null) =>
      !v ||
      ok(
        v,
        getFieldValue('contractStartDate') as string | null,
        getFieldValue('contractEndDate') as string | null,
      )
        ? Promise.resolve()
        : Promise.reject(new Error(message)),
  });

function ContractForm({ clientId, contract }: { clientId: number; contract: OperatorContract }) {
  const { t } = useTranslation();
  const lang = useLang();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  const start = Form.useWatch('contractStartDate', form) as string | null | undefined;
  const end = Form.useWatch('contractEndDate', form) as string | null | undefined;
  const label = (k: string) => t(`clients.operatorContracts.${k}`);
  const labels = {
    salesContactName: label('salesContactName'),
    contractStartDate: label('contractStartDate'),
    contractEndDate: label('contractEndDate'),
    contractEndReminder: label('contractEndReminder'),
  };
  const initial: FormValues = {
    salesContactName: contract.salesContactName ?? '',
    uploadInvoiceReminder: contract.uploadInvoiceReminder,
    contractStartDate: contract.contractStartDate,
    contractEndDate: contract.contractEndDate,
    contractEndReminder: contract.contractEndReminder,
  };
  const save = useMutation({
    mutationFn: (body: FormValues) =>
      saveOperatorContract({ clientId, operatorId: contract.operatorId, body }),
    onSuccess: (r) => {
      void message.success(t(`errors.${r.code}`, { defaultValue: r.message }));
      void queryClient.invalidateQueries({ queryKey: operatorContractsKey(clientId) });
    },
    // The reminder's rule (before the end date) belongs on the reminder.
    onError: useSaveError(form, labels, { operatorContractReminderDate: 'contractEndReminder' }),
  });
  const dayFormat = DAY_PICKER_FORMAT[lang];
  /**
   * A day of the contract; `ok` checks it against the start and end dates, both on save and in the
   * picker, whose days it refuses are off.
   */
  const dayItem = (
    name: DayField,
    testId: string,
    check?: { ok: DayCheck; message: string; dependencies: DayField[]; tooltip?: string },
  ) => (
    <Col xs={24} md={8}>
      <Form.Item
        name={name}
        label={labels[name]}
        tooltip={check?.tooltip}
        dependencies={check?.dependencies}
        {...dayProps}
        rules={check && [contractDayRule(check.ok, check.message)]}
      >
        <DatePicker
          format={dayFormat}
          style={{ width: '100%' }}
          disabledDate={
            check && ((d: Dayjs) => !check.ok(d.format('YYYY-MM-DD'), start ?? null, end ?? null))
          }
          data-testid={testId}
        />
      </Form.Item>
    </Col>
  );

  return (
    <Form<FormValues>
      form={form}
      layout="vertical"
      initialValues={initial}
      onFinish={(v) =>
        save.mutate({ ...v, salesContactName: v.salesContactName?.trim() ? v.salesContactName : null })
      }
      data-testid={`operator-contract-form-${contract.operatorId}`}
    >
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name="salesContactName" label={labels.salesContactName} rules={[{ max: 200 }]}>
            <Input maxLength={200} autoComplete="off" data-testid="oc-sales-contact" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="uploadInvoiceReminder"
            label={label('uploadInvoiceReminder')}
            valuePropName="checked"
            tooltip={label('uploadInvoiceReminderHelp')}
          >
            <Switch data-testid="oc-upload-reminder" />
          </Form.Item>
        </Col>
        {dayItem('contractStartDate', 'oc-start')}
        {dayItem('contractEndDate', 'oc-end', {
          dependencies: ['contractStartDate'],
          ok: (day, s) => !s || day >= s,
          message: t('validation.invalid', { name: labels.contractEndDate }),
        })}
        {dayItem('contractEndReminder', 'oc-reminder', {
          tooltip: label('contractEndReminderHelp'),
          dependencies: ['contractStartDate', 'contractEndDate'],
          ok: isReminderBetween,
          message: t('errors.operatorContractReminderDate'),
        })}
      </Row>
      <Space>
        {/* Not a submit button: Enter in a date picker confirms the day, it does not save the
            form before the picker has committed it. */}
        <Button type="primary" onClick={() => form.submit()} loading={save.isPending} data-testid="oc-save">
          {label('save')}
        </Button>
        <Button onClick={() => form.resetFields()}>{label('reset')}</Button>
      </Space>
    </Form>
  );
}

const formatSize = (bytes: number, lang: Lang) => {
  const nf = (n: number) =>
    new Intl.NumberFormat(lang === 'fi' ? 'fi-FI' : 'en-GB', { maximumFractionDigits: 1 }).format(n);
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${nf(bytes / 1024)} kB`;
  return `${nf(bytes / 1024 / 1024)} MB`;
};

function DocumentsTable({ clientId, operatorId }: { clientId: number; operatorId: number }) {
  const { t } = useTranslation();
  const lang = useLang();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const query = useQuery(documentsQuery(clientId, operatorId));
  const [uploading, setUploading] = useState(false);
  const file = useDownload<number>();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: documentsKey(clientId, operatorId) });
    void queryClient.invalidateQueries({ queryKey: operatorContractsKey(clientId), exact: true });
  };
  const remove = useMutation({
    mutationFn: (id: number) => deleteDocument({ clientId, operatorId, id }),
    onSuccess: (r) => {
      void message.success(t(`errors.${r.code}`, { defaultValue: r.message }));
      refresh();
    },
    onError: (e) =>
      void message.error(
        e instanceof ApiRequestError && e.status < 500 && e.code !== 'internal'
          ? errorText(t, e)
          : t('errors.documentDeleteFailed'),
      ),
  });
  const download = (d: OperatorDocument) =>
    file.run(d.id, () => downloadDocument(clientId, operatorId, d.id, `${d.name}.${d.type}`));
  const label = (k: string) => t(`clients.documents.${k}`);

  return (
    <div data-testid={`operator-documents-${operatorId}`}>
      <Flex justify="space-between" align="center" style={{ marginBottom: 8 }}>
        <Typography.Title level={5} style={{ margin: 0 }}>
          {label('title')}
        </Typography.Title>
        <Button icon={<UploadOutlined />} onClick={() => setUploading(true)} data-testid="document-upload">
          {label('upload')}
        </Button>
      </Flex>
      {query.isError ? (
        <Alert type="error" showIcon title={errorText(t, query.error)} />
      ) : (
        <Table<OperatorDocument>
          rowKey="id"
          size="small"
          loading={query.isLoading}
          dataSource={query.data?.items ?? []}
          pagination={false}
          scroll={{ x: 640 }}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={label('empty')} /> }}
          columns={[
            { key: 'name', dataIndex: 'name', title: label('name') },
            {
              key: 'type',
              dataIndex: 'type',
              title: label('type'),
              width: 90,
              render: (v: string) => <Tag>{v.toUpperCase()}</Tag>,
            },
            {
              key: 'size',
              dataIndex: 'size',
              title: label('size'),
              width: 100,
              align: 'right',
              render: (v: number) => formatSize(v, lang),
            },
            {
              key: 'uploadedAt',
              dataIndex: 'uploadedAt',
              title: label('uploadedAt'),
              width: 120,
              render: (v: string) => formatDate(v, lang),
            },
            {
              key: 'uploadedBy',
              dataIndex: 'uploadedBy',
              title: label('uploadedBy'),
              render: orNone,
            },
            {
              key: 'actions',
              title: label('actions'),
              width: 110,
              render: (_, d) => (
                <Space>
                  <Button
                    size="small"
                    icon={<DownloadOutlined />}
                    aria-label={label('download')}
                    title={label('download')}
                    loading={file.busy === d.id}
                    onClick={() => download(d)}
                    data-testid={`document-download-${d.id}`}
                  />
                  <Popconfirm
                    title={t('clients.documents.deleteConfirm', { name: d.name })}
                    okText={label('delete')}
                    cancelText={label('cancel')}
                    okButtonProps={{ danger: true, 'data-testid': 'document-delete-confirm' }}
                    onConfirm={() => remove.mutate(d.id)}
                  >
                    <Button
                      size="small"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={label('delete')}
                      title={label('delete')}
                      data-testid={`document-delete-${d.id}`}
                    />
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
          data-testid="documents-table"
        />
      )}
      {uploading && (
        <UploadModal
          clientId={clientId}
          operatorId={operatorId}
          onClose={() => setUploading(false)}
          onDone={refresh}
        />
      )}
    </div>
  );
}

const extensionOf = (name: string) => name.slice(name.lastIndexOf('.') + 1).toLowerCase();

function UploadModal({
  clientId,
  operatorId,
  onClose,
  onDone,
}: {
  clientId: number;
  operatorId: number;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ name: string }>();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const label = (k: string) => t(`clients.documents.${k}`);
  const send = useMutation({
    mutationFn: (name: string) => uploadDocument({ clientId, operatorId, name, file: file! }),
    onSuccess: (r) => {
      void message.success(t(`errors.${r.code}`, { defaultValue: r.message }));
      onDone();
      onClose();
    },
    onError: (e) => {
      if (!(e instanceof ApiRequestError) || e.status >= 500) {
        void message.error(t('errors.documentUploadFailed'));
        return;
      }
      if (e.code === 'documentNameInvalid' || e.code === 'documentNameExists')
        form.setFields([{ name: 'name', errors: [errorText(t, e)] }]);
      else if (e.code === 'documentType' || e.code === 'documentTooLarge') setFileError(errorText(t, e));
      else void message.error(errorText(t, e));
    },
  });
  const choose = (f: File) => {
    setFile(f);
    if (!(DOCUMENT_TYPES as readonly string[]).includes(extensionOf(f.name)))
      setFileError(t('errors.documentType'));
    else if (f.size > DOCUMENT_MAX_BYTES) setFileError(t('errors.documentTooLarge'));
    else setFileError(null);
    if (!form.getFieldValue('name')) form.setFieldsValue({ name: documentNameFromFile(f.name) });
    return false;
  };

  return (
    <AppModal
      open
      title={label('uploadTitle')}
      okText={label('submit')}
      cancelText={label('cancel')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okButtonProps={{ disabled: !file || !!fileError }}
      confirmLoading={send.isPending}
      destroyOnHidden
    >
      <Form<{ name: string }>
        form={form}
        layout="vertical"
        onFinish={(v) => file && !fileError && send.mutate(v.name.trim())}
        data-testid="document-upload-form"
      >
        <Form.Item
          label={label('file')}
          required
          validateStatus={fileError ? 'error' : undefined}
          help={fileError ?? label('fileHelp')}
        >
          <Upload
            accept={DOCUMENT_ACCEPT}
            maxCount={1}
            beforeUpload={choose}
            fileList={file ? [{ uid: '1', name: file.name, status: fileError ? 'error' : 'done' }] : []}
            onRemove={() => {
              setFile(null);
              setFileError(null);
            }}
          >
            <Button icon={<UploadOutlined />} data-testid="document-file">
              {label('chooseFile')}
            </Button>
          </Upload>
        </Form.Item>
        <Form.Item
          name="name"
          label={label('name')}
          extra={label('nameHelp')}
          rules={[
            { required: true, whitespace: true, message: t('validation.required', { name: label('name') }) },
            {
              validator: (_, v: string | undefined) =>
                !v?.trim() || isDocumentName(v.trim())
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('errors.documentNameInvalid'))),
            },
          ]}
        >
          <Input maxLength={DOCUMENT_NAME_MAX} autoComplete="off" data-testid="document-name" />
        </Form.Item>
      </Form>
    </AppModal>
  );
}
