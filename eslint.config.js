import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import globals from 'globals';

const WEB_FEATURES = [
  'admin',
  'alerts',
  'auth',
  'dashboard',
  'devices',
  'emergency',
  'landing',
  'monitoring',
  'notifications',
  'pets',
  'safety',
  'support',
  'waitlist',
];

/** `no-restricted-imports` for the files matching `files`, by specifier patterns. */
function restrictImports(files, patterns) {
  return { files: [files], rules: { 'no-restricted-imports': ['error', { patterns }] } };
}

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/dist-ssr/**',
      '**/node_modules/**',
      'data/**',
      'data-demo/**',
      '**/.artifacts/**',
      'coverage/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  // Imports flow one way (conventions.md, docs/architecture.md). Server: routes → services →
  // repositories → db, with plugins/ (HTTP concerns) beside routes. Checked on the import
  // specifiers, with ESLint's own rule (no resolver needed).
  restrictImports('apps/server/src/db/**', [
    {
      regex: '(^|/)(repositories|services|ingest|alerts|routes|plugins)(/|$)',
      message: 'db/ is the floor: it imports no repositories, services, routes or plugins.',
    },
  ]),
  restrictImports('apps/server/src/repositories/**', [
    {
      regex: '(^|/)(services|ingest|alerts|routes|plugins)(/|$)',
      message: 'Repositories are database access only: they import no services, routes or plugins.',
    },
  ]),
  restrictImports('apps/server/src/{services,ingest,alerts}/**', [
    {
      regex: '(^|/)(routes|plugins)(/|$)',
      message:
        'Services know nothing of HTTP: they import no routes or plugins (what both need lives in services/).',
    },
  ]),
  // No import cycles (conventions.md): each file can be read after the files it imports.
  // Type-only imports do not count; they leave nothing at run time.
  {
    files: [
      'apps/server/src/**/*.ts',
      'packages/shared/src/**/*.ts',
      'tools/collar-sim/src/**/*.ts',
    ],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.js'],
          // TypeScript's ESM specifiers name the .js that the .ts becomes.
          extensionAlias: { '.js': ['.ts', '.js'] },
        }),
      ],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['apps/server/src/**/*.ts'],
    rules: {
      // All SQL goes through Kysely's builder or its tagged `sql` template (parameterised).
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='raw'][callee.object.name='sql']",
          message: 'sql.raw builds SQL from strings; use the query builder or the sql`` template.',
        },
      ],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-syntax': [
        'error',
        {
          selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']",
          message: 'Render user text as text.',
        },
      ],
    },
  },
  {
    // Runs in the browser as it is, before the app (see the file).
    files: ['apps/web/public/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
  // Web: components/lib → features → app; a feature never imports another feature.
  restrictImports('apps/web/src/{components,lib}/**', [
    {
      regex: '^@/(features|app)(/|$)',
      message: 'Shared code imports no features and no app shell.',
    },
  ]),
  ...WEB_FEATURES.map((feature) =>
    restrictImports(`apps/web/src/features/${feature}/**`, [
      {
        regex: '^@/app(/|$)',
        message: 'Features do not import the app shell; the app composes features.',
      },
      {
        regex: `^@/features/(?!${feature}(/|$))`,
        message:
          'A feature never imports another feature; move shared code to components/ or lib/.',
      },
      {
        regex: '^\\.\\./\\.\\./(?!\\.\\.)',
        message:
          'A feature never imports another feature; shared code lives in components/ or lib/.',
      },
    ]),
  ),
  {
    files: [
      '**/*.test.{ts,tsx}',
      'e2e/**',
      'bench/**',
      'scripts/**',
      'apps/web/scripts/**',
      'tools/**',
    ],
    rules: { 'no-console': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
