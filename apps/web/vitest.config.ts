import { defineConfig } from 'vitest/config';
import { sharedTexts } from './shared-texts-plugin';

export default defineConfig({
  plugins: [sharedTexts()],
  test: {
    name: 'web',
    root: import.meta.dirname,
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    environment: 'node',
  },
});
