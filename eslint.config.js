// ESLint for the page's ES modules (src/domeng/web/js; no build step): the
// recommended rules, the browser's globals. `make lint-web` runs it.
import js from "@eslint/js";
import globals from "globals";

export default [
  {
    ignores: ["node_modules/", ".venv/", "benchmarks/", "tests/"],
  },
  {
    files: ["src/domeng/web/js/**/*.js"],
    ...js.configs.recommended,
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: "module",
      globals: globals.browser,
    },
  },
  {
    files: ["eslint.config.js"],
    ...js.configs.recommended,
    languageOptions: { sourceType: "module", globals: globals.node },
  },
];
