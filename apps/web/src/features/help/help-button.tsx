import { useEffect, useState } from 'react';
import { Button, Empty, Flex, Spin, Typography } from 'antd';
import { IconButton } from '../../components/icon-button';
import { FileTextOutlined, QuestionCircleOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { AppModal } from '../../components/app-modal';
import { SourceLink } from '../../components/source-link';
import { api } from '../../lib/api';
import { ApiRequestError } from '../../lib/api-client';
import { fetchFile } from '../../lib/download';
import { errorText } from '../../lib/form-rules';
import { helpPageOf, opensInBrowser } from './help-page';

interface HelpFile {
  id: number;
  languageId: number;
  fileName: string;
  mime: string;
  size: number;
  url: string;
}

/** "?" in the header: the help file of the current page for the user's role and language. */
export function HelpButton() {
  const { t, i18n } = useTranslation();
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  const page = helpPageOf(pathname);
  const help = useQuery({
    queryKey: ['help', page, i18n.language],
    queryFn: async ({ signal }) => {
      try {
        return await api.get<HelpFile>('/api/help', { query: { page }, signal });
      } catch (e) {
        if (e instanceof ApiRequestError && e.status === 404) return null;
        throw e;
      }
    },
    enabled: open,
    staleTime: 60_000,
  });
  // The file itself, fetched with the bearer token and handed to the browser as a blob link.
  const [link, setLink] = useState<{ href: string; name: string } | null>(null);
  const [fileError, setFileError] = useState<unknown>(null);
  const file = help.data;
  useEffect(() => {
    if (!open || !file) return;
    let href: string | null = null;
    let live = true;
    fetchFile(file.url, file.fileName)
      .then(({ blob, name }) => {
        if (!live) return;
        href = URL.createObjectURL(blob);
        setLink({ href, name });
      })
      .catch((e: unknown) => live && setFileError(e));
    return () => {
      live = false;
      if (href) URL.revokeObjectURL(href);
      setLink(null);
      setFileError(null);
    };
  }, [open, file]);

  return (
    <>
      <IconButton
        label={t('help.button')}
        shape="circle"
        icon={<QuestionCircleOutlined />}
        onClick={() => setOpen(true)}
        data-testid="help-button"
      />
      <AppModal
        open={open}
        title={t('help.title')}
        onCancel={() => setOpen(false)}
        footer={null}
        destroyOnHidden
      >
        <div data-testid="help-modal" style={{ minHeight: 120 }}>
          {help.isLoading ? (
            <Flex justify="center" style={{ padding: 32 }}>
              <Spin />
            </Flex>
          ) : help.isError ? (
            <Typography.Text type="danger">{errorText(t, help.error)}</Typography.Text>
          ) : !file ? (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={t('help.none')}
              data-testid="help-none"
            />
          ) : (
            <Flex vertical gap={12} align="flex-start">
              <Typography.Text>
                <FileTextOutlined /> {file.fileName}
              </Typography.Text>
              {fileError ? (
                <Typography.Text type="danger">{errorText(t, fileError)}</Typography.Text>
              ) : (
                <Button
                  type="primary"
                  href={link?.href}
                  target={opensInBrowser(file.mime) ? '_blank' : undefined}
                  download={opensInBrowser(file.mime) ? undefined : link?.name}
                  rel="noopener"
                  loading={!link}
                  data-testid="help-open"
                >
                  {opensInBrowser(file.mime) ? t('help.open') : t('help.download')}
                </Button>
              )}
            </Flex>
          )}
        </div>
        <Typography.Paragraph
          type="secondary"
          style={{ marginTop: 16, marginBottom: 0 }}
          data-testid="help-licence"
        >
          {t('help.licence')} <SourceLink />
        </Typography.Paragraph>
      </AppModal>
    </>
  );
}
