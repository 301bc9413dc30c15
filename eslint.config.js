// ESLint (flat config), run by `make lint-js` and so by `make test`: our
// browser modules, the worker, the benchmark pages and the Node test scripts.
// CommonJS so it loads whatever package.json says about module type.
const js = require("@eslint/js");
const globals = require("globals");

// The house limit on function length (README, "Two commands": functions of at most 80 lines).
const HOUSE = {
  "max-lines-per-function": ["error", { max: 80, skipBlankLines: false, skipComments: false }],
  "no-unused-vars": ["error", { caughtErrors: "none" }],
  eqeqeq: ["error", "always", { null: "ignore" }],
  "prefer-const": "error",
  "no-var": "error",
};

module.exports = [
  { ignores: ["node_modules/**", "_site/**", "_site-full/**", "build/**", ".cache/**", "test-artifacts/**", "bench/pages/*.min.js"] },
  js.configs.recommended,
  {
    files: ["site/static/js/**/*.js"],
    languageOptions: { sourceType: "module", globals: { ...globals.browser } },
    rules: HOUSE,
  },
  {
    files: ["site/static/js/worker.js", "site/static/js/worker/**/*.js"],
    languageOptions: { globals: { ...globals.worker } },
  },
  {
    files: ["bench/pages/*.js"],
    languageOptions: { sourceType: "script", globals: { ...globals.browser, lunr: "readonly" } },
    rules: HOUSE,
  },
  {
    files: ["bench/pages/pagefind-bench.js", "bench/pages/fetch-cost.js"],
    languageOptions: { sourceType: "module" },
  },
  {
    files: ["bench/pages/bare-worker.js"],
    languageOptions: { sourceType: "module", globals: { ...globals.worker } },
  },
  {
    files: ["tests/**/*.mjs", "python_pkg/govsearch_build/*.mjs", "bench/*.mjs"],
    languageOptions: { sourceType: "module", globals: { ...globals.node } },
    rules: HOUSE,
  },
  {
    files: ["eslint.config.js"],
    languageOptions: { sourceType: "commonjs", globals: { ...globals.node } },
  },
];
