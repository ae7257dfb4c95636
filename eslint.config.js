// ESLint (flat config) over the browser page, src/taash/web: plain ES modules with no build
// step, plus the service worker's two classic scripts.  Run by scripts/js as
// `npx eslint --max-warnings 0 src/taash/web tests/js eslint.config.js`; see docs/contributing.md.
import js from '@eslint/js';
import globals from 'globals';

const SW = ['src/taash/web/sw.js', 'src/taash/web/sw-push.js'];

// Rules beyond eslint:recommended: each one catches a real mistake, none is about style.
const rules = {
  // `x != null` (null or undefined) is kept on purpose; every other comparison is strict.
  eqeqeq: ['error', 'always', { null: 'ignore' }],
  'no-unused-vars': ['error', { args: 'after-used', caughtErrors: 'all', ignoreRestSiblings: true }],
  'no-shadow': 'error',
  'no-var': 'error',
  'prefer-const': 'error',
  'no-self-compare': 'error',
  'no-template-curly-in-string': 'error',
  'no-unmodified-loop-condition': 'error',
  'no-unreachable-loop': 'error',
  'no-constructor-return': 'error',
  'no-unused-private-class-members': 'error',
  'array-callback-return': 'error',
  'default-case-last': 'error',
  'no-eval': 'error',
  'no-implied-eval': 'error',
  'no-new-func': 'error',
  'no-new-wrappers': 'error',
  'no-extend-native': 'error',
  'no-proto': 'error',
  'no-caller': 'error',
  'no-script-url': 'error',
  'no-throw-literal': 'error',
  'prefer-promise-reject-errors': 'error',
  'no-loop-func': 'error',
  'no-sequences': 'error',
  'no-return-assign': 'error',
  'no-lone-blocks': 'error',
  'no-duplicate-imports': 'error',
  'no-useless-call': 'error',
  'no-useless-concat': 'error',
  'no-useless-rename': 'error',
  'no-useless-return': 'error',
  radix: 'error',
  // a leftover console.log; warnings and errors meant for the console are kept
  'no-console': ['error', { allow: ['warn', 'error'] }],
};

export default [
  // offline play's Pyodide, extracted from its pinned npm tarball by scripts/offline
  { ignores: ['src/taash/web/offline/'] },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  {
    // the page: ES modules in a window
    files: ['src/taash/web/**/*.js'],
    ignores: SW,
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: { ...globals.browser } },
    rules: {
      ...rules,
      // window properties that read as a forgotten local (`name`, `status`, `event`, ...)
      'no-restricted-globals': ['error', 'event', 'name', 'length', 'status', 'top', 'parent',
        'self', 'close', 'open', 'opener', 'origin', 'closed', 'frames', 'external',
        'find', 'print', 'stop', 'screen', 'scroll', 'menubar', 'toolbar', 'defaultStatus'],
    },
  },
  {
    // the service worker: classic scripts (sw.js loads sw-push.js with importScripts), whose
    // global is the worker's `self`, with no window or document
    files: SW,
    languageOptions: { ecmaVersion: 2022, sourceType: 'script', globals: { ...globals.serviceworker } },
    rules,
  },
  {
    // the unit tests of the page's pure logic, run by `node --test tests/js/`
    files: ['tests/js/**/*.mjs', 'eslint.config.js'],
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: { ...globals.node } },
    rules,
  },
];
