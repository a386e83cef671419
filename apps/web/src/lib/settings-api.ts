import { LANGUAGE, type ClientInfo, type SettingsUpdate } from '@kulu/shared';
import { api } from './api';
import { setLanguage, type Lang } from './i18n';
import { getSession, updateSession } from './session';

/** PUT /api/profile/settings: the user's language and theme, kept on the user and in the session. */
export async function saveSettings(update: SettingsUpdate): Promise<void> {
  const info = await api.put<ClientInfo>('/api/profile/settings', update);
  updateSession(info);
}

/** A language picked while signed out (on the login page): signing in keeps it. */
let pickedSignedOut: Lang | null = null;

/**
 * Switches the language now; when logged in, also saves it on the user (failures there do
 * not undo the switch, the local choice still holds).
 */
export async function changeLanguage(lang: Lang): Promise<void> {
  await setLanguage(lang);
  if (getSession()) {
    updateSession({ languageID: LANGUAGE[lang] });
    await saveSettings({ languageID: LANGUAGE[lang] });
  } else {
    pickedSignedOut = lang;
  }
}

/**
 * The language right after signing in: the one the user picked on the way in (saved on the user
 * once the session has started), else the one saved on the user.
 */
export function signedInLanguage(saved: Lang): Lang {
  return pickedSignedOut ?? saved;
}

/** After the session started: saves a language picked while signed out on the user. */
export async function keepLanguagePickedSignedOut(): Promise<void> {
  const picked = pickedSignedOut;
  pickedSignedOut = null;
  if (picked && getSession()) await changeLanguage(picked);
}
