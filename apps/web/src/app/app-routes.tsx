import { Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { ACCOUNT_ROUTES, PUBLIC_ROUTES } from '@kulu/shared';
import { AccountRoute } from './account-route';
import { HomeRedirect } from './home-redirect';
import { MenuPageRoute } from './menu-page-route';
import { PageLoader } from './page-loader';
import {
  ActivatePage,
  AppLayout,
  BuilderPage,
  ChangePasswordPage,
  ForgotPasswordPage,
  LoginPage,
  NotFoundPage,
  ProfilePage,
  ResetPasswordPage,
  SignupPage,
} from './pages';
import { PublicOnly } from './public-only';
import { RequireAuth } from './require-auth';
import { canOpenBuilder, detailPageRoutes, groupRedirects, pageRoutes } from './routes';

const PAGE_ROUTES = pageRoutes();
const GROUP_REDIRECTS = groupRedirects();
const DETAIL_ROUTES = detailPageRoutes();

export function AppRoutes() {
  return (
    <Suspense fallback={<PageLoader />}>
      <Routes>
        <Route path="/" element={<HomeRedirect />} />
        <Route element={<PublicOnly />}>
          <Route path={PUBLIC_ROUTES.login} element={<LoginPage />} />
          <Route path={PUBLIC_ROUTES.signup} element={<SignupPage />} />
        </Route>
        <Route path={PUBLIC_ROUTES.forgotPassword} element={<ForgotPasswordPage />} />
        <Route path={PUBLIC_ROUTES.resetPassword} element={<ResetPasswordPage />} />
        <Route path={PUBLIC_ROUTES.activate} element={<ActivatePage />} />
        <Route path={PUBLIC_ROUTES.notFound} element={<NotFoundPage />} />
        <Route element={<RequireAuth />}>
          <Route element={<AppLayout />}>
            {PAGE_ROUTES.map((route) => (
              <Route key={route.path} path={route.path} element={<MenuPageRoute route={route} />} />
            ))}
            {DETAIL_ROUTES.map(({ pattern, route }) => (
              <Route key={pattern} path={pattern} element={<MenuPageRoute route={route} />} />
            ))}
            {GROUP_REDIRECTS.map(({ path, to }) => (
              <Route key={path} path={path} element={<Navigate to={to} replace />} />
            ))}
            <Route
              path={ACCOUNT_ROUTES.profile}
              element={<AccountRoute titleKey="pageTitle.profile" page={ProfilePage} />}
            />
            <Route
              path={ACCOUNT_ROUTES.changePassword}
              element={<AccountRoute titleKey="pageTitle.changePassword" page={ChangePasswordPage} />}
            />
            <Route
              path={ACCOUNT_ROUTES.builder}
              element={
                <AccountRoute titleKey="pageTitle.builder" page={BuilderPage} allowed={canOpenBuilder} />
              }
            />
          </Route>
        </Route>
        <Route path="*" element={<Navigate to={PUBLIC_ROUTES.notFound} replace />} />
      </Routes>
    </Suspense>
  );
}
