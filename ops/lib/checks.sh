# The code's shape, checked before the suite (npm test with no files) and by `npm run check`:
# types (tsc strict), the layers (.dependency-cruiser.cjs), lint (eslint.config.mjs), format
# (.prettierrc.json) and the API contract: the committed OpenAPI document (docs/openapi.json, which
# test/integration/openapi.test.ts keeps equal to the served one) under Redocly's recommended rules
# (redocly.yaml) and Spectral's OpenAPI rules (.spectral.yaml). Each prints what is wrong and fails
# the run; lint warnings are printed and pass.
# the panel has its own tsconfig (the DOM, JSX, bundler resolution)
check_types()  { node node_modules/typescript/bin/tsc --noEmit -p . && node node_modules/typescript/bin/tsc --noEmit -p panel; }
check_layers() { node node_modules/dependency-cruiser/bin/dependency-cruiser.mjs --config .dependency-cruiser.cjs api workers agent shared cli sdk/typescript/src panel/src; }
check_lint()   { node node_modules/eslint/bin/eslint.js api workers shared agent cli test migrations panel; }
check_format() { node node_modules/prettier/bin/prettier.cjs --check --log-level warn .; }
# no telemetry or update check: the build machines have no network beyond the registries
check_contract() {
  REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true node node_modules/@redocly/cli/bin/cli.js lint docs/openapi.json --format=summary &&
    node node_modules/@stoplight/spectral-cli/dist/index.js lint docs/openapi.json --ruleset .spectral.yaml --fail-severity error --format text
}

run_checks() {
  timed "types (tsc --noEmit)" check_types &&
    timed "layers (dependency-cruiser)" check_layers &&
    timed "lint (eslint)" check_lint &&
    timed "format (prettier --check)" check_format &&
    timed "API contract (redocly, spectral)" check_contract
}
