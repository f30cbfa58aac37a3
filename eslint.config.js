import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

// A domain function answers SUCCESS or ERROR (server/errors.ts); a refusal says why in a typed `reason`,
// a success that has several shapes in a field of its own. No other `kind` of result.
const AD_HOC_RESULT_KIND = {
  selector: ":matches(Property[key.name='kind'], TSPropertySignature[key.name='kind'] TSLiteralType) > Literal[value=/^[A-Z][A-Z_]+$/]:not([value=/^(SUCCESS|ERROR)$/])",
  message: "A result is { kind: \"SUCCESS\" } or a refusal of server/errors.ts (refusal(code, REASON, message)); put other outcomes in a field of their own.",
};
const OK_FLAG_RESULT = {
  selector: ":matches(Property[key.name='ok'], TSPropertySignature[key.name='ok'] TSLiteralType) > Literal[value=/^(true|false)$/], :matches(Property[key.name='ok'], TSPropertySignature[key.name='ok'] TSLiteralType) > Literal[raw=/^(true|false)$/]",
  message: "Not { ok }: answer a Result of server/errors.ts ({ kind: \"SUCCESS\" } or a refusal).",
};

export default tseslint.config(
  { ignores: ["build/", "node_modules/", ".react-router/", "data/", "test-results/", "playwright-report/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // Modules are named by where they live (#app/…, #server/…, #tests/…), never by ../ chains.
      "no-restricted-imports": [
        "error",
        { patterns: [{ regex: "^\\.\\./", message: "Import through #app/, #server/ or #tests/ instead of a ../ path." }] },
      ],
      "no-restricted-syntax": ["error", AD_HOC_RESULT_KIND, OK_FLAG_RESULT],
    },
  },
  {
    // Routes answer through app/lib/respond.server.ts: the refusal's code picks the status, never the route.
    files: ["app/routes/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-syntax": [
        "error",
        AD_HOC_RESULT_KIND,
        OK_FLAG_RESULT,
        {
          selector: "Property[key.name='status'] > Literal[value=/^[1-5][0-9][0-9]$/], Property[key.name='status'] > Literal[raw=/^[1-5][0-9][0-9]$/]",
          message: "Don't pick an HTTP status in a route: refuse(code) / refuseWith(refusal) / answerRefusal(refusal, data) from #app/lib/respond.server.",
        },
        {
          selector: "ImportSpecifier[imported.name='httpStatusOf']",
          message: "Routes don't map codes to statuses by hand: use #app/lib/respond.server.",
        },
      ],
    },
  },
  {
    // Playwright fixtures take `{}` and call `use`, which is not React's hook.
    files: ["tests/e2e/**/*.ts"],
    rules: { "no-empty-pattern": "off", "react-hooks/rules-of-hooks": "off" },
  },
  {
    files: ["**/*.{js,mjs}"],
    languageOptions: { globals: globals.node },
  },
);
