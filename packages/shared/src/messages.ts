import FIELD_TEXTS from './texts/field-messages.json' with { type: 'json' };
import MESSAGE_TEXTS from './texts/messages.json' with { type: 'json' };

export type Lang = 'en' | 'fi';

/** A table of texts in both languages; an entry without one of them does not compile. */
export type Texts<Key extends string> = { readonly [K in Key]: { readonly en: string; readonly fi: string } };

/**
 * Error and success messages that cross the wire (spec §8), in both languages: the data is
 * `texts/messages.json` (texts are for translators, not code; decision 0027), its keys the codes.
 * The API answers `{ code, message }` with the message in the caller's language; the web app loads
 * these same texts into its translations under `errors.<code>`. `{allowed}` (invalidSort) and the
 * like are filled in by the API.
 */
export const MESSAGES: Texts<keyof typeof MESSAGE_TEXTS> = MESSAGE_TEXTS;

export type MessageCode = keyof typeof MESSAGES;

export const message = (code: MessageCode, lang: Lang = 'en'): string => MESSAGES[code][lang];

/** `{name} is required` / `{name} is invalid!` (spec §5), in both languages (`texts/field-messages.json`). */
export const FIELD_MESSAGES: Texts<keyof typeof FIELD_TEXTS> = FIELD_TEXTS;

export const fieldMessage = (kind: keyof typeof FIELD_MESSAGES, name: string, lang: Lang = 'en'): string =>
  FIELD_MESSAGES[kind][lang].replace('{name}', name);

/** The body of every API error. `fields` maps a field path to a message code of FIELD_MESSAGES. */
export interface ApiError {
  statusCode: number;
  code: string;
  message: string;
  fields?: Record<string, string>;
}
