import fs from 'node:fs/promises';
import path from 'node:path';
import { transform } from 'esbuild';
import type { Plugin } from 'vite';

const PREFIX = 'virtual:shared-texts/';
const LANGS = ['en', 'fi'];
const MESSAGES_SRC = path.resolve(import.meta.dirname, '../../packages/shared/src/messages.ts');

type Table = Record<string, Record<string, string>>;

/**
 * `virtual:shared-texts/<lang>`: the messages and field messages of @kulu/shared (the one source,
 * both languages side by side) cut down to one language at build time, so the browser loads the
 * texts of the language it shows, beside that language's own locale file, and never both.
 */
export function sharedTexts(): Plugin {
  return {
    name: 'kulu-shared-texts',
    resolveId: (id) => (id.startsWith(PREFIX) ? `\0${id}` : null),
    async load(id) {
      if (!id.startsWith(`\0${PREFIX}`)) return null;
      const lang = id.slice(PREFIX.length + 1);
      if (!LANGS.includes(lang)) throw new Error(`no shared texts for language "${lang}"`);
      this.addWatchFile(MESSAGES_SRC);
      const { code } = await transform(await fs.readFile(MESSAGES_SRC, 'utf8'), {
        loader: 'ts',
        format: 'esm',
      });
      const mod = (await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`)) as {
        MESSAGES: Table;
        FIELD_MESSAGES: Table;
      };
      const pick = (table: Table) => Object.fromEntries(Object.entries(table).map(([k, t]) => [k, t[lang]]));
      const texts = { errors: pick(mod.MESSAGES), validation: pick(mod.FIELD_MESSAGES) };
      return `export default ${JSON.stringify(texts)};`;
    },
  };
}
