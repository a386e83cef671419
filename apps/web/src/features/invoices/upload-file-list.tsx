import { Button, Flex, List, Progress, Tag, Typography } from 'antd';
import { CloseOutlined, FilePdfOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Invoice, Lang } from '@kulu/shared';
import { formatNumber } from '../../lib/format';
import { invoiceReasonText, reasonText, UPLOAD_STATE_COLOR } from './labels';
import { ContractWayForward } from './contract-way-forward';
import type { UploadItem } from './upload-files';

/** What a file shows: its send status, then the state of its invoice once the API took it. */
export type FileState = 'pending' | 'uploading' | 'refused' | Invoice['uploadState'];

export const fileStateOf = (item: UploadItem, invoice: Invoice | undefined): FileState =>
  item.status === 'accepted' ? (invoice?.uploadState ?? 'in_progress') : item.status;

const STATE_COLOR: Record<FileState, string> = {
  ...UPLOAD_STATE_COLOR,
  pending: 'default',
  uploading: 'blue',
  refused: 'error',
};

const sizeText = (bytes: number, lang: Lang) =>
  bytes >= 1024 * 1024
    ? `${formatNumber(Math.round((bytes / 1024 / 1024) * 10) / 10, lang)} MB`
    : `${formatNumber(Math.max(1, Math.round(bytes / 1024)), lang)} kB`;

interface Props {
  items: UploadItem[];
  invoices: Map<number, Invoice>;
  onRemove: (uid: string) => void;
}

/** The chosen files with a progress bar and status each. */
export function UploadFileList({ items, invoices, onRemove }: Props) {
  const { t, i18n } = useTranslation();
  const lang: Lang = i18n.language === 'fi' ? 'fi' : 'en';
  return (
    <List
      size="small"
      dataSource={items}
      data-testid="upload-files"
      renderItem={(item) => {
        const invoice = item.invoiceId ? invoices.get(item.invoiceId) : undefined;
        const state = fileStateOf(item, invoice);
        const reason =
          state === 'refused'
            ? reasonText(t, item.code, item.message)
            : state === 'failed'
              ? invoice
                ? invoiceReasonText(t, invoice)
                : reasonText(t, null, null)
              : null;
        const removable = item.status === 'pending' || item.status === 'refused';
        return (
          <List.Item
            data-testid="upload-file"
            data-file={item.file.name}
            data-state={state}
            actions={[
              removable ? (
                <Button
                  key="remove"
                  type="text"
                  size="small"
                  icon={<CloseOutlined />}
                  aria-label={t('invoices.upload.remove')}
                  title={t('invoices.upload.remove')}
                  onClick={() => onRemove(item.uid)}
                />
              ) : (
                <span key="remove" style={{ display: 'inline-block', width: 24 }} />
              ),
            ]}
          >
            <Flex vertical gap={2} style={{ width: '100%', minWidth: 0 }}>
              <Flex align="center" gap={8} wrap>
                <FilePdfOutlined />
                <Typography.Text strong ellipsis style={{ maxWidth: 360 }}>
                  {item.file.name}
                </Typography.Text>
                <Typography.Text type="secondary">{sizeText(item.file.size, lang)}</Typography.Text>
                <Tag color={STATE_COLOR[state]} data-testid="upload-file-state">
                  {state === 'uploading'
                    ? t('invoices.fileState.uploading', { percent: item.percent })
                    : t(`invoices.fileState.${state}`)}
                </Tag>
              </Flex>
              <Progress
                percent={item.percent}
                size="small"
                status={
                  state === 'refused' || state === 'failed'
                    ? 'exception'
                    : state === 'uploading' || state === 'in_progress'
                      ? 'active'
                      : state === 'uploaded'
                        ? 'success'
                        : 'normal'
                }
                showInfo={false}
              />
              {reason && (
                <Typography.Text type="danger" data-testid="upload-file-reason">
                  {reason}
                </Typography.Text>
              )}
              {invoice && <ContractWayForward invoice={invoice} />}
            </Flex>
          </List.Item>
        );
      }}
    />
  );
}
