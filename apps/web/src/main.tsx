import i18n, { currentLang, i18nReady } from './lib/i18n';
import { watchIconNames } from './lib/icon-names';
import './app/app.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppRoot } from './app/app-root';
import { removeSplashWhenDone } from './app/splash';

void i18nReady.then(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AppRoot />
    </StrictMode>,
  );
  removeSplashWhenDone();
  // antd's icons named in the interface language, or hidden beside a control's own name.
  watchIconNames(document.body, currentLang, i18n);
});
