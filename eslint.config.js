// typescript-eslint's recommended type-checked rules over src/ and test/ (npm run lint).
// A rule is turned off only with a one-line reason beside it.
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'bench/**', 'scripts/**', 'bin/**', 'sample/**', 'test/**/fixtures/**', '*.config.*', '.dependency-cruiser.cjs'] },
  eslint.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // The sanitisers (util/text.ts, server/media.ts, the key check) match control characters on purpose.
      'no-control-regex': 'off',
      // The sanitisers list combining marks and bidi controls one code point at a time, on purpose.
      'no-misleading-character-class': 'off',
      // An async function without await still promises a rejection, never a throw: interfaces (sinks, stores) ask for that.
      '@typescript-eslint/require-await': 'off',
      // Callbacks in the Context and the sinks are declared in method syntax but are closures that never read `this`.
      '@typescript-eslint/unbound-method': 'off',
      // A leading underscore marks a binding taken only to leave it out (`const { a: _a, ...rest }`).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // A worker pool rethrows the first failure it caught: an unknown narrowed by `!== undefined`, which these take for a non-Error.
      '@typescript-eslint/only-throw-error': 'off',
      '@typescript-eslint/prefer-promise-reject-errors': 'off',
      // A handle assigned once, after the closures that use it are made (they run only later).
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    files: ['src/media/download-file.ts'],
    // The download loop resets `offset` in each branch to say where the next attempt starts, even where the sink's size overrides it.
    rules: { 'no-useless-assignment': 'off' },
  },
  {
    files: ['test/**'],
    rules: {
      // Tests read the CLI's JSON output and undici's internals as `any`; their assertions check the shape.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
);
