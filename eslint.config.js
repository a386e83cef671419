import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'apps/api/src/db/migrations/**', '**/*.mjs', '**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-imports': 'off',
    },
  },
  {
    // Boundaries: the web app never imports the API; shared imports nothing from apps.
    files: ['apps/web/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/apps/api/**', '@kulu/api'], message: 'apps/web must not import apps/api' }] }],
    },
  },
  {
    // Tenancy is decided in one place: lib/scope.ts builds the Scope and plugins/access.ts puts one
    // on every request. Modules use req.scope (where, assertClient, ownClientId), never a role check
    // of their own to tell provider from client.
    files: ['apps/api/src/**/*.ts'],
    ignores: ['apps/api/src/lib/scope.ts', 'apps/api/src/plugins/access.ts', 'apps/api/src/**/*.test.ts', 'apps/api/src/test/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: '@kulu/shared', importNames: ['isProviderRole', 'isClientRole'], message: 'Tenancy goes through req.scope (lib/scope.ts), not role checks' }] }],
      'no-restricted-syntax': [
        'error',
        { selector: "BinaryExpression[operator=/^[!=]==?$/]:has(MemberExpression[object.name='ROLE'])", message: 'Tenancy goes through req.scope (lib/scope.ts), not role checks' },
        { selector: "SwitchStatement > MemberExpression.discriminant[property.name='roleId']", message: 'Tenancy goes through req.scope (lib/scope.ts), not role checks' },
      ],
    },
  },
  {
    // auth picks the menu and home path (admin or company screens) and the operators offered at
    // login: that is about which screens a role gets, not which rows it may read.
    files: ['apps/api/src/modules/auth/auth.service.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['packages/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/apps/**', '@kulu/api', '@kulu/web'], message: 'packages/shared imports nothing from apps' }] }],
    },
  },
);
