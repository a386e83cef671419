import fs from 'node:fs/promises';
import path from 'node:path';
import type { Plugin } from 'vite';

const PREFIX = 'virtual:shared-texts/';
const LANGS = ['en', 'fi'];
const TEXTS = path.resolve(import.meta.dirname, '../../packages/shared/src/texts');
/** The data behind MESSAGES and FIELD_MESSAGES of @kulu/shared (messages.ts, decision 0027). */
const SOURCES = { errors: 'messages.json', validation: 'field-messages.json' } as const;

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
      const texts: Record<string, Record<string, string>> = {};
      for (const [part, file] of Object.entries(SOURCES)) {
        const src = path.join(TEXTS, file);
        this.addWatchFile(src);
        const table = JSON.parse(await fs.readFile(src, 'utf8')) as Table;
        texts[part] = Object.fromEntries(Object.entries(table).map(([k, t]) => [k, t[lang]]));
      }
      return `export default ${JSON.stringify(texts)};`;
    },
  };
}
