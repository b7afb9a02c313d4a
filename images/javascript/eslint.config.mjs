// The lint gate's configuration: the tool's, never the repo's (eslint runs with --config).
// One image serves JavaScript and TypeScript: each block names its language's files.
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

const javascript = ["**/*.js", "**/*.mjs", "**/*.cjs"];
const typescript = ["**/*.ts", "**/*.mts", "**/*.cts"];
// A parameter list is a signature (a stub's, before its body is written), used or not.
const unused = ["error", { args: "none" }];

export default [
  js.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: "module",
      globals: { ...globals.node },
    },
  },
  { files: javascript, rules: { "no-unused-vars": unused } },
  ...tseslint.configs.recommended.map((config) => ({ ...config, files: typescript })),
  {
    files: typescript,
    rules: { "no-unused-vars": "off", "@typescript-eslint/no-unused-vars": unused },
  },
];
