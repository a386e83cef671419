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

export default defineConfig({
  base: './',
  plugins: [react(), sharedTexts(), configProviderWithoutUniqueTooltip()],
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
