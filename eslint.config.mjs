import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * A small rule set on purpose: the recommended rules of ESLint and typescript-eslint (no type
 * information, so a run takes seconds), tuned where they fight how this code base reads. tsc
 * (strict) and the layer rules (.dependency-cruiser.cjs) carry the rest.
 */
export default tseslint.config(
  { ignores: ['node_modules/', '.tools/', '.build/', '.berth/', 'coverage/', 'docs/', 'panel/dist/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // `_name`: a parameter a signature needs but the body does not (a failure hook's operation)
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      eqeqeq: ['error', 'smart'],
      // an initial value a try or a loop overwrites (`let seen = ''`) reads better than a bare `let seen: string;`
      'no-useless-assignment': 'off',
    },
  },
  {
    // tests read JSON answers whose shape the assertions check
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
