import { QueryClientProvider } from '@tanstack/react-query';
import { HashRouter } from 'react-router';
import { AppConfig } from './app-config';
import { AppRoutes } from './app-routes';
import { queryClient } from './query-client';
import { SessionExpiryBridge } from './session-expiry-bridge';
import { TopProgressBar } from './top-progress-bar';

export function AppRoot() {
  return (
    <QueryClientProvider client={queryClient}>
      <AppConfig>
        <HashRouter>
          <SessionExpiryBridge />
          <TopProgressBar />
          <AppRoutes />
        </HashRouter>
      </AppConfig>
    </QueryClientProvider>
  );
}
