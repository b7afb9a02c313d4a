// The lint gate's configuration: the tool's, never the repo's (eslint runs with --config).
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: "module",
      globals: { ...globals.node },
    },
    rules: {
      // A parameter list is a signature (a stub's, before its body is written), used or not.
      "no-unused-vars": ["error", { args: "none" }],
    },
  },
];
