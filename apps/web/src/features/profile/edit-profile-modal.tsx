import { App, Form, Input } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { profileUpdateSchema, type Profile, type ProfileUpdate } from '@kulu/shared';
import { AppModal } from '../../components/app-modal';
import { formFields } from '../../lib/form-rules';
import { useSaveError } from '../../lib/use-save-error';
import { updateSession } from '../../lib/session';
import { profileQuery, updateProfile } from './api';

interface Props {
  profile: Profile;
  open: boolean;
  onClose: () => void;
}

const shape = profileUpdateSchema.shape;

export function EditProfileModal({ profile, open, onClose }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<ProfileUpdate>();
  const labels = {
    fullName: t('profile.user.fullName'),
    contactNumber: t('profile.user.contactNumber'),
    address: t('profile.user.address'),
  };
  const field = formFields(t, labels, shape);
  const save = useMutation({
    mutationFn: (v: ProfileUpdate) =>
      updateProfile({ fullName: v.fullName, contactNumber: v.contactNumber ?? '', address: v.address ?? '' }),
    onSuccess: (updated) => {
      queryClient.setQueryData(profileQuery.queryKey, updated);
      updateSession({ fullName: updated.fullName });
      void message.success(t('errors.profileUpdated'));
      onClose();
    },
    onError: useSaveError(form, labels),
  });

  return (
    <AppModal
      open={open}
      title={t('profile.user.edit')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={save.isPending}
      destroyOnHidden
      width={560}
    >
      <Form<ProfileUpdate>
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={{
          fullName: profile.fullName,
          contactNumber: profile.contactNumber ?? '',
          address: profile.address ?? '',
        }}
        onFinish={(v) => save.mutate(v)}
      >
        <Form.Item {...field('fullName')}>
          <Input autoComplete="name" />
        </Form.Item>
        <Form.Item {...field('contactNumber', false)} extra={t('auth.signup.contactNumberHelp')}>
          <Input inputMode="numeric" autoComplete="tel" />
        </Form.Item>
        <Form.Item {...field('address', false)}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 5 }} />
        </Form.Item>
      </Form>
    </AppModal>
  );
}
