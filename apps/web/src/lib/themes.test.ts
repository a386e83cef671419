import { describe, expect, it } from 'vitest';
import { theme } from 'antd';
import { APP_THEMES, antdThemeFor } from './themes';
import { contrast } from './contrast';

const AA = 4.5;
const tokensOf = (t: (typeof APP_THEMES)[number]) => {
  const config = antdThemeFor(t);
  const k = theme.getDesignToken(config) as unknown as Record<string, string>;
  const c = config.components as Record<string, Record<string, string>>;
  return { k, tag: { ...k, ...c.Tag }, button: c.Button, menu: c.Menu, avatar: c.Avatar, badge: c.Badge };
};

/** The lowest contrast of `fg` over the theme's page, card and popup backgrounds. */
const worst = (fg: string, k: Record<string, string>) =>
  Math.min(...[k.colorBgLayout, k.colorBgContainer, k.colorBgElevated].map((bg) => contrast(fg, bg)));

describe.each(APP_THEMES.map((t) => [t.key, t] as const))('theme %s reaches WCAG AA contrast', (_, t) => {
  const { k, tag, button, menu, avatar, badge } = tokensOf(t);

  it('for secondary and description texts and placeholders on every background', () => {
    for (const name of ['colorText', 'colorTextSecondary', 'colorTextDescription', 'colorTextPlaceholder'])
      expect(worst(k[name], k), name).toBeGreaterThanOrEqual(AA);
  });

  it('for red and green texts (danger, success, form errors) and for the count on a badge', () => {
    for (const name of ['colorErrorText', 'colorSuccessText'])
      expect(worst(k[name], k), name).toBeGreaterThanOrEqual(AA);
    expect(contrast('#ffffff', badge.colorError), 'badge').toBeGreaterThanOrEqual(AA);
  });

  it('for the primary colour as link and tab text, and for text on primary fills', () => {
    expect(worst(k.colorPrimary, k)).toBeGreaterThanOrEqual(AA);
    expect(worst(k.colorLink, k)).toBeGreaterThanOrEqual(AA);
    expect(contrast(button.primaryColor, k.colorPrimary)).toBeGreaterThanOrEqual(AA);
    expect(contrast(menu.darkItemSelectedColor, k.colorPrimary)).toBeGreaterThanOrEqual(AA);
    expect(contrast(avatar.colorTextLightSolid, k.colorPrimary), 'avatar').toBeGreaterThanOrEqual(AA);
  });

  it("for hovered and pressed primaries and links, as text and under their fill's text", () => {
    for (const name of ['colorPrimaryHover', 'colorPrimaryActive', 'colorLinkHover', 'colorLinkActive'])
      expect(worst(k[name], k), name).toBeGreaterThanOrEqual(AA);
    for (const name of ['colorPrimaryHover', 'colorPrimaryActive'])
      expect(contrast(button.primaryColor, k[name]), name).toBeGreaterThanOrEqual(AA);
  });

  it('for every tag colour on its tinted background', () => {
    for (const c of ['blue', 'purple', 'cyan', 'green', 'magenta', 'red', 'orange', 'volcano', 'gold'])
      expect(contrast(tag[`${c}7`], tag[`${c}1`]), c).toBeGreaterThanOrEqual(AA);
    for (const c of ['colorSuccess', 'colorInfo', 'colorError', 'colorWarning'])
      expect(contrast(tag[c], tag[`${c}Bg`]), c).toBeGreaterThanOrEqual(AA);
  });
});
