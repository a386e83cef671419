import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { sharedTexts } from './shared-texts-plugin';

const UNIQUE_TOOLTIP_STUB = '\0kulu:antd-unique-tooltip-stub';

/**
 * antd's ConfigProvider imports the Tooltip's UniqueProvider, and with it @rc-component/trigger's popup
 * positioning (about 11 KB gzip of the login page), for its `tooltip.unique` option alone, which Kulu
 * never sets (app-config.tsx). Here that one import is a pass-through; Tooltip, Popover, Select and
 * the other popups import the trigger themselves and keep it.
 */
function configProviderWithoutUniqueTooltip(): Plugin {
  return {
    name: 'kulu-config-provider-without-unique-tooltip',
    enforce: 'pre',
    resolveId: (source, importer) =>
      source === '../tooltip/UniqueProvider' &&
      importer &&
      /antd[\\/]es[\\/]config-provider[\\/]index\.js$/.test(importer)
        ? UNIQUE_TOOLTIP_STUB
        : null,
    load: (id) =>
      id === UNIQUE_TOOLTIP_STUB
        ? 'export default function UniqueProvider(props) { return props.children; }'
        : null,
  };
}

const ICON_PREFIX = '\0kulu:antd-icon:';

/**
 * Every antd icon is a `<span role="img" aria-label="close">`: its English name, which a screen reader
 * reads on a Finnish page too ("close", "search", "down" beside Finnish labels; issue 37 item 19).
 * The icons are drawings beside a labelled control (the button, the select, the close button has
 * its own "Sulje"): here the icons' base component (`AntdIconLight`, and `AntdIcon` of the two-tone
 * ones), as every icon module imports it, hides an icon from assistive technology unless the app
 * names it (`aria-label` or `aria-labelledby`), instead of naming it in English.
 */
function iconsWithoutEnglishNames(): Plugin {
  return {
    name: 'kulu-icons-without-english-names',
    enforce: 'pre',
    resolveId: (source, importer) => {
      const base = /^\.\.\/components\/(AntdIconLight|AntdIcon)$/.exec(source)?.[1];
      return base && importer && /@ant-design[\\/]icons[\\/]es[\\/]icons[\\/]/.test(importer)
        ? ICON_PREFIX + base
        : null;
    },
    load: (id) =>
      id.startsWith(ICON_PREFIX)
        ? `import { createElement, forwardRef } from 'react';
import Base from '@ant-design/icons/es/components/${id.slice(ICON_PREFIX.length)}';
const Icon = forwardRef(function Icon(props, ref) {
  const named = props['aria-label'] != null || props['aria-labelledby'] != null;
  return createElement(Base, named ? { ...props, ref } : { role: undefined, 'aria-label': undefined, 'aria-hidden': true, ...props, ref });
});
Icon.getTwoToneColor = Base.getTwoToneColor;
Icon.setTwoToneColor = Base.setTwoToneColor;
export default Icon;`
        : null,
  };
}

export default defineConfig({
  base: './',
  plugins: [react(), sharedTexts(), configProviderWithoutUniqueTooltip(), iconsWithoutEnglishNames()],
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:8080' },
  },
  build: {
    manifest: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      treeshake: {
        // @kulu/shared is pure declarations: let the zod schemas stay out of chunks that do not use them
        // (the login page needs the route table and messages, not zod).
        moduleSideEffects: [{ test: /packages[\\/]shared[\\/]src[\\/]/, sideEffects: false }],
      },
    },
  },
});
