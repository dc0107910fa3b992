// typescript-eslint's recommended type-checked rules over the whole tree; formatting is Prettier's (npm run format).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

export default tseslint.config(
  // The client's types are generated (npm run client:generate); its hand-written files are linted with its own tsconfig.
  { ignores: ['node_modules/', 'dist/', 'data/', 'bench/results/', 'clients/typescript/src/schema.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.mjs', 'scripts/*.mjs', '.*.cjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // A leading underscore names what a destructuring leaves out on purpose (`const { _position, ...doc } = stored`).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // `async` without `await` is how a synchronous adapter of a Promise-returning port turns a throw into a rejection.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
  },
  {
    // Standalone tools for third parties (no dependency, plain JavaScript): they read untyped JSON exports.
    files: ['scripts/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { process: 'readonly', Buffer: 'readonly' } },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // Tests read the API's JSON answers untyped on purpose: the assertions are the shape check, and a wrong shape fails them.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  prettier,
);
