import { useEffect, useRef } from 'react';
import { App, Button, Card, Col, Flex, Radio, Row, Typography } from 'antd';
import { UndoOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DEFAULT_LAYOUT, type LayoutSettings } from '@kulu/shared';
import { PageHeading } from '../../components/page-heading';
import { api } from '../../lib/api';
import { errorText } from '../../lib/form-rules';
import { layoutSettingsQuery, useLayoutSettings } from '../../lib/layout-settings';

type Option<K extends keyof LayoutSettings> = { key: K; values: LayoutSettings[K][] };
const OPTIONS: [Option<'layout'>, Option<'aside'>, Option<'header'>] = [
  { key: 'layout', values: ['fluid', 'boxed'] },
  { key: 'aside', values: ['dark', 'light'] },
  { key: 'header', values: ['fixed', 'static'] },
];

/**
 * Layout builder of the provider admin: every change shows at once; Save keeps it for everyone,
 * leaving without saving puts the saved layout back.
 */
export function BuilderPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const layout = useLayoutSettings();
  const saved = useRef<LayoutSettings | null>(null);
  if (saved.current === null) saved.current = layout;

  const preview = (next: LayoutSettings) => queryClient.setQueryData(layoutSettingsQuery.queryKey, next);
  useEffect(
    () => () => {
      if (saved.current) queryClient.setQueryData(layoutSettingsQuery.queryKey, saved.current);
    },
    [queryClient],
  );

  const save = useMutation({
    mutationFn: (body: LayoutSettings) => api.put<LayoutSettings>('/api/layout', body),
    onSuccess: (res) => {
      saved.current = res;
      preview(res);
      void message.success(t('builder.saved'));
    },
    onError: (err) => void message.error(errorText(t, err)),
  });

  const dirty = (Object.keys(layout) as (keyof LayoutSettings)[]).some(
    (k) => layout[k] !== saved.current?.[k],
  );

  return (
    <>
      <PageHeading title={t('pageTitle.builder')} />
      <Card>
        <Typography.Paragraph type="secondary">{t('builder.intro')}</Typography.Paragraph>
        <Row gutter={[24, 24]}>
          {OPTIONS.map(({ key, values }) => (
            <Col xs={24} md={8} key={key}>
              <Typography.Title level={5}>{t(`builder.${key}.title`)}</Typography.Title>
              <Radio.Group
                value={layout[key]}
                onChange={(e) => preview({ ...layout, [key]: e.target.value as string })}
                optionType="button"
                buttonStyle="solid"
                options={values.map((v) => ({ value: v, label: t(`builder.${key}.${v}`) }))}
                data-testid={`builder-${key}`}
              />
              <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
                {t(`builder.${key}.help`)}
              </Typography.Paragraph>
            </Col>
          ))}
        </Row>
        <Flex gap={8} justify="flex-end">
          <Button icon={<UndoOutlined />} onClick={() => preview(DEFAULT_LAYOUT)}>
            {t('builder.reset')}
          </Button>
          <Button
            type="primary"
            disabled={!dirty}
            loading={save.isPending}
            onClick={() => save.mutate(layout)}
          >
            {t('common.save')}
          </Button>
        </Flex>
      </Card>
    </>
  );
}
