import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { sharedTexts } from './shared-texts-plugin';

export default defineConfig({
  base: './',
  plugins: [react(), sharedTexts()],
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
