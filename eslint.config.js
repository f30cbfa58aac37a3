import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

// A domain function answers SUCCESS or ERROR (server/platform/errors.ts); a refusal says why in a typed `reason`,
// a success that has several shapes in a field of its own. No other `kind` of result.
const AD_HOC_RESULT_KIND = {
  selector: ":matches(Property[key.name='kind'], TSPropertySignature[key.name='kind'] TSLiteralType) > Literal[value=/^[A-Z][A-Z_]+$/]:not([value=/^(SUCCESS|ERROR)$/])",
  message: "A result is { kind: \"SUCCESS\" } or a refusal of server/platform/errors.ts (refusal(code, REASON, message)); put other outcomes in a field of their own.",
};
// ADR 0010: an in-app message is a notification; "alert" is SPEC's word, kept only in quotes of it.
const NO_ALERT_NAMES = {
  selector: "Identifier[name=/[Aa]lert/]",
  message: "Call it a notification (ADR 0010): \"alert\" survives only in SPEC quotes.",
};
const OK_FLAG_RESULT = {
  selector: ":matches(Property[key.name='ok'], TSPropertySignature[key.name='ok'] TSLiteralType) > Literal[value=/^(true|false)$/], :matches(Property[key.name='ok'], TSPropertySignature[key.name='ok'] TSLiteralType) > Literal[raw=/^(true|false)$/]",
  message: "Not { ok }: answer a Result of server/platform/errors.ts ({ kind: \"SUCCESS\" } or a refusal).",
};

// Where a module may import from. The floors, top to bottom (docs/ARCHITECTURE.md): app/ → server/main/ →
// server/tools/ → server/features/ and the payment providers' adapters → server/domains/ → server/platform/.
const NO_PARENT_PATHS = { regex: "^\\.\\./", message: "Import through #app/, #server/, #isomorphic/, #page-kit/ or #tests/ instead of a ../ path." };
const NO_TEST_HOOKS = { regex: "^#server/tools/test-hooks/", message: "Nothing in the product imports the test hooks: they are mounted by server/main/app.ts only when test routes are on." };
const NO_APP = { regex: "^#app/", message: "server/ never imports app/: move what both need to isomorphic/ (pure code) or page-kit/ (pieces of pages)." };
const NO_SERVER_VALUES = { regex: "^#server/", allowTypeImports: true, message: "Components and isomorphic code don't import server code: take data by props, or move pure code to isomorphic/." };
const NO_ROUTES = { regex: "^#app/routes/", allowTypeImports: false, message: "Components don't import routes: a route imports its components, never the other way round." };
const NO_MAIN = { regex: "^#server/main/", message: "Nothing in server/ imports server/main/: the top floor builds and wires everything below it and hands it down." };
const NO_TOOLS = { regex: "^#server/tools/", message: "The product does not import the tools (backup, seed, test hooks): server/main/ runs them." };
const NO_FEATURES = { regex: "^#server/features/", message: "A domain imports no feature: a feature (server/features/) combines domains, never the other way round." };
const NO_DOMAINS = { regex: "^#server/domains/", message: "The platform imports no domain: take what a domain knows as a parameter, or move the code up to server/domains/." };
const NO_PROVIDER_ADAPTERS = {
  regex: "^#server/providers/payments/(stripe|sandbox|choose-provider)(/|$)",
  message: "Reach a payment provider only through the port (server/providers/payments/port.ts); server/main/composition-root.ts picks one (choose-provider.ts).",
};
const NO_PROVIDERS = { regex: "^#server/providers/", message: "The platform knows no payment provider: the port is for domains (server/providers/payments/port.ts)." };
const NO_NODE = { regex: "^node:", message: "isomorphic/ runs in the browser too: no Node built-ins." };

/** One `no-restricted-imports` per zone: a later block replaces an earlier one's patterns, so each lists all of its own. */
function importZone(...patterns) {
  return { "@typescript-eslint/no-restricted-imports": ["error", { patterns: [NO_PARENT_PATHS, NO_TEST_HOOKS, ...patterns] }] };
}

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
      // Modules are named by where they live (#app/…, #server/…, #isomorphic/…, #tests/…), never by ../ chains.
      ...importZone(),
      "no-restricted-syntax": ["error", AD_HOC_RESULT_KIND, OK_FLAG_RESULT, NO_ALERT_NAMES],
    },
  },
  {
    // Routes answer through page-kit/respond.server.ts: the refusal's code picks the status, never the route.
    files: ["app/routes/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-syntax": [
        "error",
        AD_HOC_RESULT_KIND,
        OK_FLAG_RESULT,
        NO_ALERT_NAMES,
        {
          selector:
            "Property[key.name='status'] > Literal[raw=/^[1-5][0-9][0-9]$/], CallExpression[callee.name=/^(redirect|data|json)$/] > Literal[raw=/^[1-5][0-9][0-9]$/]",
          message: "Don't pick an HTTP status in a route: refuse(code) / refuseWith(refusal) / answerRefusal(refusal, data) from #page-kit/respond.server.",
        },
        {
          selector: "ImportSpecifier[imported.name='httpStatusOf']",
          message: "Routes don't map codes to statuses by hand: use #page-kit/respond.server.",
        },
      ],
    },
  },
  { files: ["server/**/*.{ts,tsx}"], rules: importZone(NO_APP, NO_MAIN, NO_TOOLS, NO_PROVIDER_ADAPTERS) },
  { files: ["server/platform/**/*.{ts,tsx}"], rules: importZone(NO_APP, NO_MAIN, NO_TOOLS, NO_FEATURES, NO_DOMAINS, NO_PROVIDERS) },
  { files: ["server/domains/**/*.{ts,tsx}"], rules: importZone(NO_APP, NO_MAIN, NO_TOOLS, NO_FEATURES, NO_PROVIDER_ADAPTERS) },
  // The port (port.ts, events.ts) is what domains see of a provider: it stands on the platform alone.
  { files: ["server/providers/payments/*.ts"], rules: importZone(NO_APP, NO_MAIN, NO_TOOLS, NO_FEATURES, NO_DOMAINS) },
  // The adapters stand on the platform too: what they need of the app's rules the composition root hands them.
  { files: ["server/providers/payments/stripe/**", "server/providers/payments/sandbox/**"], rules: importZone(NO_APP, NO_MAIN, NO_TOOLS, NO_FEATURES, NO_DOMAINS) },
  { files: ["server/providers/payments/choose-provider.ts"], rules: importZone(NO_APP, NO_MAIN, NO_TOOLS, NO_FEATURES, NO_DOMAINS) },
  { files: ["server/tools/**/*.{ts,tsx}"], rules: importZone(NO_APP, NO_MAIN) },
  { files: ["server/tools/test-hooks/**"], rules: { "@typescript-eslint/no-restricted-imports": ["error", { patterns: [NO_PARENT_PATHS, NO_APP, NO_MAIN] }] } },
  { files: ["server/main/**/*.{ts,tsx}"], rules: importZone(NO_APP) },
  { files: ["server/main/app.ts"], rules: { "@typescript-eslint/no-restricted-imports": ["error", { patterns: [NO_PARENT_PATHS, NO_APP] }] } },
  // The building blocks of every page (the app's and the sandbox provider's) sit below both.
  { files: ["page-kit/**/*.{ts,tsx}"], rules: importZone(NO_APP, NO_PROVIDER_ADAPTERS) },
  { files: ["app/components/**/*.{ts,tsx}"], rules: importZone(NO_SERVER_VALUES, NO_ROUTES) },
  { files: ["isomorphic/**/*.{ts,tsx}"], rules: importZone(NO_APP, { ...NO_SERVER_VALUES, allowTypeImports: false }, NO_NODE) },
  {
    // Tests may reach anything, hooks included.
    files: ["tests/**/*.ts", "**/*.test.{ts,tsx}"],
    rules: { "@typescript-eslint/no-restricted-imports": ["error", { patterns: [NO_PARENT_PATHS] }] },
  },
  {
    // Test services stand in for outside systems (an SMTP sink, Stripe's API): their wire shapes are those systems'.
    files: ["tests/support/**/*.ts"],
    rules: { "no-restricted-syntax": ["error", NO_ALERT_NAMES] },
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
