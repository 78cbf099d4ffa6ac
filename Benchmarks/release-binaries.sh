# Sourced by the benchmark scripts. `release_binaries PRODUCT…` sets BIN_DIR to a directory holding release builds
# of the products: BIN_DIR as given (`make bench` passes the static build it made), else a `swift build -c release`
# in SCRATCH with the Makefile's flags (cross-module and link-time optimization).
# The Makefile's RELEASE_FLAGS, spelled again here: keep the two the same.
RELEASE_FLAGS=(-c release -Xswiftc -cross-module-optimization --experimental-lto-mode=full)
release_binaries() {
    if [[ -n "${BIN_DIR:-}" ]]; then return; fi
    echo "building release $*…" >&2
    local product
    for product in "$@"; do
        (cd "$ROOT" && swift build "${RELEASE_FLAGS[@]}" --scratch-path "$SCRATCH" --product "$product" >&2)
    done
    BIN_DIR="$(cd "$ROOT" && swift build "${RELEASE_FLAGS[@]}" --scratch-path "$SCRATCH" --show-bin-path)"
}
