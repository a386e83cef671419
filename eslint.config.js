import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Layers (docs/architecture.md, issue 25). Each zone of the API gets one `no-restricted-imports`
// setting (a later config block replaces a rule's options, it does not add to them), so the zones'
// settings are composed from these parts.
const TENANCY = {
  paths: [
    {
      name: '@kulu/shared',
      importNames: ['isProviderRole', 'isClientRole'],
      message: 'Tenancy goes through req.scope (lib/scope.ts), not role checks',
    },
  ],
};
const MODULES_LAYER = {
  patterns: [
    {
      regex: '(^|/)jobs/',
      message:
        'modules never import jobs/: the queue and its names are in lib/queue.ts, and jobs/index.ts composes the handlers of the modules (docs/architecture.md)',
    },
  ],
};
const LIB_DB_LAYER = {
  patterns: [
    {
      regex: '(^|/)(modules|jobs)/',
      message: 'lib/ and db/ import no module and nothing of jobs/ (docs/architecture.md)',
    },
  ],
};
const restrict = (...parts) => {
  const paths = parts.flatMap((p) => p.paths ?? []);
  const patterns = parts.flatMap((p) => p.patterns ?? []);
  return ['error', { ...(paths.length ? { paths } : {}), ...(patterns.length ? { patterns } : {}) }];
};

/** `<x>` of a path inside apps/web/src/features/<x>/, else null. */
const featureOf = (file) => /[\\/]apps[\\/]web[\\/]src[\\/]features[\\/]([^\\/]+)[\\/]/.exec(file)?.[1] ?? null;
/** Whether a path is inside apps/web/src/components/ or apps/web/src/lib/. */
const isSharedWeb = (file) => /[\\/]apps[\\/]web[\\/]src[\\/](components|lib)[\\/]/.test(file);

/**
 * On the web a feature never imports another feature, and components/ and lib/ import no feature:
 * what two features share belongs in components/ or lib/ (docs/architecture.md). Relative imports
 * are resolved against the importing file; app/ composes the features and may import any of them.
 */
const featureBoundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'A web feature imports no other feature; components/ and lib/ import none' },
    schema: [],
    messages: {
      otherFeature:
        'features/{{from}} must not import features/{{to}}: move what both use to components/ or lib/ (docs/architecture.md)',
      sharedToFeature:
        'components/ and lib/ must not import features/{{to}}: they serve every feature (docs/architecture.md)',
    },
  },
  create(context) {
    const file = context.filename;
    const from = featureOf(file);
    const shared = isSharedWeb(file);
    if (!from && !shared) return {};
    const check = (source) => {
      if (source?.type !== 'Literal' || typeof source.value !== 'string' || !source.value.startsWith('.')) return;
      const to = featureOf(`${path.resolve(path.dirname(file), source.value)}/`);
      if (!to || to === from) return;
      context.report({ node: source, messageId: from ? 'otherFeature' : 'sharedToFeature', data: { from, to } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      TSImportType: (node) => check(node.source ?? node.argument?.literal),
    };
  },
};

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
    plugins: { kulu: { rules: { 'feature-boundaries': featureBoundaries } } },
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/apps/api/**', '@kulu/api'], message: 'apps/web must not import apps/api' }] }],
      'kulu/feature-boundaries': 'error',
    },
  },
  {
    // Tenancy is decided in one place: lib/scope.ts builds the Scope and plugins/access.ts puts one
    // on every request. Modules use req.scope (where, assertClient, ownClientId), never a role check
    // of their own to tell provider from client.
    files: ['apps/api/src/**/*.ts'],
    ignores: ['apps/api/src/lib/scope.ts', 'apps/api/src/plugins/access.ts', 'apps/api/src/**/*.test.ts', 'apps/api/src/test/**'],
    rules: {
      'no-restricted-imports': restrict(TENANCY),
      'no-restricted-syntax': [
        'error',
        { selector: "BinaryExpression[operator=/^[!=]==?$/]:has(MemberExpression[object.name='ROLE'])", message: 'Tenancy goes through req.scope (lib/scope.ts), not role checks' },
        { selector: "SwitchStatement > MemberExpression.discriminant[property.name='roleId']", message: 'Tenancy goes through req.scope (lib/scope.ts), not role checks' },
      ],
    },
  },
  {
    // Layers: modules never import jobs/ (jobs/index.ts composes their handlers; the queue is
    // lib/queue.ts). Tests are exempt: a module's test starts the composed workers (startJobs) as
    // the server does, to run a job end to end.
    files: ['apps/api/src/modules/**/*.ts'],
    ignores: ['apps/api/src/**/*.test.ts'],
    rules: { 'no-restricted-imports': restrict(TENANCY, MODULES_LAYER) },
  },
  {
    // auth picks the menu and home path (admin or company screens) and the operators offered at
    // login: that is about which screens a role gets, not which rows it may read.
    files: ['apps/api/src/modules/auth/auth.service.ts'],
    rules: { 'no-restricted-imports': restrict(MODULES_LAYER) },
  },
  {
    // Layers: lib/ and db/ import no module and nothing of jobs/ (tests included).
    files: ['apps/api/src/lib/**/*.ts', 'apps/api/src/db/**/*.ts'],
    rules: { 'no-restricted-imports': restrict(TENANCY, LIB_DB_LAYER) },
  },
  {
    // ... without the tenancy check where the block above the first leaves it out.
    files: ['apps/api/src/lib/scope.ts', 'apps/api/src/lib/**/*.test.ts', 'apps/api/src/db/**/*.test.ts'],
    rules: { 'no-restricted-imports': restrict(LIB_DB_LAYER) },
  },
  {
    files: ['packages/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/apps/**', '@kulu/api', '@kulu/web'], message: 'packages/shared imports nothing from apps' }] }],
    },
  },
);
