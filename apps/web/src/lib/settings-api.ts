import { LANGUAGE, type ClientInfo, type SettingsUpdate } from '@kulu/shared';
import { api } from './api';
import { setLanguage, type Lang } from './i18n';
import { getSession, updateSession } from './session';

/** PUT /api/profile/settings: the user's language and theme, kept on the user and in the session. */
export async function saveSettings(update: SettingsUpdate): Promise<void> {
  const info = await api.put<ClientInfo>('/api/profile/settings', update);
  updateSession(info);
}

/**
 * Switches the language now; when logged in, also saves it on the user (failures there do
 * not undo the switch, the local choice still holds).
 */
export async function changeLanguage(lang: Lang): Promise<void> {
  await setLanguage(lang);
  if (getSession()) {
    updateSession({ languageID: LANGUAGE[lang] });
    await saveSettings({ languageID: LANGUAGE[lang] });
  }
}
