import { App, Button, Flex, Popconfirm, Typography, Upload } from 'antd';
import { DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/form-rules';
import { updateSession, useSession } from '../../lib/session';
import { deleteLogo, profileQuery, uploadLogo } from './api';

const MAX_LOGO_BYTES = 1024 * 1024;

/** Company logo: PNG only (checked here before the upload, and again by the server). */
export function LogoUpload() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const logo = useSession()?.logo ?? null;

  const onDone = (next: string | null) => {
    updateSession({ logo: next });
    void queryClient.invalidateQueries({ queryKey: profileQuery.queryKey });
  };
  const upload = useMutation({
    mutationFn: uploadLogo,
    onSuccess: (res) => {
      onDone(res.logo);
      void message.success(t('profile.settings.logoSaved'));
    },
    onError: (err) => void message.error(errorText(t, err)),
  });
  const remove = useMutation({
    mutationFn: deleteLogo,
    onSuccess: () => onDone(null),
    onError: (err) => void message.error(errorText(t, err)),
  });

  return (
    <Flex vertical gap={12} align="flex-start">
      {logo ? (
        <img
          src={logo}
          alt={t('profile.settings.logo')}
          className="logo-preview"
          data-testid="logo-preview"
        />
      ) : (
        <Typography.Text type="secondary">{t('profile.settings.noLogo')}</Typography.Text>
      )}
      <Flex gap={8} wrap>
        <Upload
          accept="image/png"
          showUploadList={false}
          beforeUpload={(file) => {
            if (file.type !== 'image/png' && !file.name.toLowerCase().endsWith('.png')) {
              void message.error(t('errors.logoPngOnly'));
              return Upload.LIST_IGNORE;
            }
            if (file.size > MAX_LOGO_BYTES) {
              void message.error(t('errors.logoTooLarge'));
              return Upload.LIST_IGNORE;
            }
            upload.mutate(file);
            return false;
          }}
        >
          <Button icon={<UploadOutlined />} loading={upload.isPending} data-testid="logo-upload">
            {t('profile.settings.uploadLogo')}
          </Button>
        </Upload>
        {logo && (
          <Popconfirm
            title={t('profile.settings.removeLogoConfirm')}
            okText={t('common.yes')}
            cancelText={t('common.no')}
            onConfirm={() => remove.mutate()}
          >
            <Button icon={<DeleteOutlined />} danger loading={remove.isPending}>
              {t('profile.settings.removeLogo')}
            </Button>
          </Popconfirm>
        )}
      </Flex>
      <Typography.Text type="secondary">{t('profile.settings.logoHelp')}</Typography.Text>
    </Flex>
  );
}
