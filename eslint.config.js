import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', '**/.artifacts/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'import-x/no-cycle': 'off',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['apps/server/src/**/*.ts'],
    rules: {
      // Imports flow one way: routes → services → repositories.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './apps/server/src/repositories', from: './apps/server/src/services' },
            { target: './apps/server/src/repositories', from: './apps/server/src/routes' },
            { target: './apps/server/src/services', from: './apps/server/src/routes' },
          ],
        },
      ],
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
      'react/no-danger': 'off',
      'no-restricted-syntax': [
        'error',
        { selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']", message: 'Render user text as text.' },
      ],
      // Web: components/lib → features → app; a feature never imports another.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './apps/web/src/components', from: ['./apps/web/src/features', './apps/web/src/app'] },
            { target: './apps/web/src/lib', from: ['./apps/web/src/features', './apps/web/src/app'] },
            { target: './apps/web/src/features', from: './apps/web/src/app' },
            ...['auth', 'landing', 'pets', 'devices', 'monitoring', 'alerts', 'notifications', 'admin', 'emergency', 'safety', 'support', 'dashboard', 'waitlist'].map(
              (f) => ({
                target: `./apps/web/src/features/${f}`,
                from: './apps/web/src/features',
                except: [`./${f}`],
              }),
            ),
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.test.{ts,tsx}', 'e2e/**', 'bench/**', 'scripts/**', 'tools/**'],
    rules: { 'no-console': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
