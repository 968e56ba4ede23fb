// Lint rules: typescript-eslint's recommended set plus the project's bans (no `any`, no floating promises).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'coverage/**', 'backtest/data/**', 'docs/**', 'bin/**', 'eslint.config.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: {
        // The sweep's and the tape reader's worker-thread entries are plain JS (they register tsx before loading TypeScript).
        projectService: {
          allowDefaultProject: [
            'backtest/sweep/worker.mjs',
            'backtest/tape/tape-worker.mjs',
            'bench/bare-loop.mjs',
            'bench/process-usage.mjs',
            'tools/build.mjs',
            'tools/check-line-length.mjs',
            'tools/long-functions.mjs',
          ],
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
);
