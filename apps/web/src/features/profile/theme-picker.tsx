import { App, Card, Col, Row, Tag, Typography } from 'antd';
import { CheckCircleFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/form-rules';
import { saveSettings } from '../../lib/settings-api';
import { updateSession, useSession } from '../../lib/session';
import { APP_THEMES, type AppTheme } from '../../lib/themes';

const swatch = (th: AppTheme) =>
  th.dark
    ? ['#141414', '#1f1f1f', th.colorPrimary]
    : [th.colorBgLayout ?? '#f5f5f5', '#ffffff', th.colorPrimary];

/** The ten themes: applied at once, saved on the user. */
export function ThemePicker() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const selected = useSession()?.applicationThemeID ?? 1;

  const choose = (id: number) => {
    if (id === selected) return;
    const previous = selected;
    updateSession({ applicationThemeID: id });
    saveSettings({ applicationThemeID: id })
      .then(() => void message.success(t('profile.settings.saved')))
      .catch((err: unknown) => {
        updateSession({ applicationThemeID: previous });
        void message.error(errorText(t, err));
      });
  };

  return (
    <Row gutter={[12, 12]} data-testid="theme-picker">
      {APP_THEMES.map((th) => {
        const active = th.id === selected;
        return (
          <Col key={th.id} xs={12} sm={8} lg={6} xxl={4}>
            <Card
              size="small"
              hoverable
              className="theme-swatch"
              onClick={() => choose(th.id)}
              style={
                active
                  ? { borderColor: th.colorPrimary, boxShadow: `0 0 0 2px ${th.colorPrimary}40` }
                  : undefined
              }
              data-testid={`theme-${th.id}`}
              aria-pressed={active}
              role="button"
            >
              <div className="theme-swatch-colors">
                {swatch(th).map((c, i) => (
                  <span key={i} style={{ background: c }} />
                ))}
              </div>
              <Typography.Text strong>
                {active && <CheckCircleFilled style={{ color: th.colorPrimary, marginRight: 6 }} />}
                {t(`themes.${th.key}`)}
              </Typography.Text>
              <div style={{ marginTop: 4, minHeight: 22 }}>
                {th.dark && <Tag>{t('profile.settings.dark')}</Tag>}
                {th.compact && <Tag>{t('profile.settings.compact')}</Tag>}
              </div>
            </Card>
          </Col>
        );
      })}
    </Row>
  );
}
