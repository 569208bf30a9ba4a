# The code's shape, checked before the suite (npm test with no files) and by `npm run check`:
# types (tsc strict), the layers (.dependency-cruiser.cjs), lint (eslint.config.mjs) and format
# (.prettierrc.json). Each prints what is wrong and fails the run.
check_types()  { node node_modules/typescript/bin/tsc --noEmit -p .; }
check_layers() { node node_modules/dependency-cruiser/bin/dependency-cruiser.mjs --config .dependency-cruiser.cjs api workers agent shared cli; }
check_lint()   { node node_modules/eslint/bin/eslint.js api workers shared agent cli test migrations; }
check_format() { node node_modules/prettier/bin/prettier.cjs --check --log-level warn .; }

run_checks() {
  timed "types (tsc --noEmit)" check_types &&
    timed "layers (dependency-cruiser)" check_layers &&
    timed "lint (eslint)" check_lint &&
    timed "format (prettier --check)" check_format
}
