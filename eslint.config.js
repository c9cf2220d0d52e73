// payctl's lint rules: few, each catching a mistake tsc lets through.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // src/api/types.ts is written by scripts/gen-types.mjs, which decides its layout.
  { ignores: ['dist/**', 'node_modules/**', 'bin/**', 'scripts/**', 'bench/**', 'completions/**', 'src/api/types.ts'] },
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser, parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A promise nobody awaits loses its error and its exit code: payctl would say "done" after a failed request.
      '@typescript-eslint/no-floating-promises': 'error',
      // An async callback where a sync one is expected (an event handler, forEach) runs unawaited, the same way.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      // Unused names are dead code or a forgotten step; a leading _ marks a parameter kept for its position.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Type-only imports are erased, so a module loaded on demand (import()) is not pulled into start-up by a type.
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      // `any` switches strict checking off for everything it touches; unknown and a check say what is meant.
      '@typescript-eslint/no-explicit-any': 'error',
      // Lines a reviewer can read side by side in a diff. A test's name is a sentence, searched for
      // when it fails, so the line that opens a test may be longer; so may a URL or a regex, and so
      // may a line holding a message: a user greps the code for the words payctl printed, which a
      // string cut in two would hide.
      'max-len': ['error', { code: 160, ignoreUrls: true, ignoreRegExpLiterals: true, ignoreStrings: true, ignoreTemplateLiterals: true, ignorePattern: String.raw`^\s*(it|describe|needsTools\([^)]*\))\(` }],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // A skipped test is a green line that proved nothing: tests that need a tool use test/helpers/tools.ts, which names the skip.
      'no-restricted-properties': [
        'error',
        ...['it', 'test', 'describe'].flatMap((object) =>
          ['skip', 'skipIf', 'todo', 'only'].map((property) => ({ object, property, message: 'a test that does not run must say why: use needsTool() from test/helpers/tools.ts' })),
        ),
      ],
    },
  },
);
