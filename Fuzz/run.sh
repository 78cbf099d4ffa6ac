#!/usr/bin/env bash
# Builds one libFuzzer target (or all) with AddressSanitizer and runs it for a bounded time on its seed corpus.
#
#   bash Fuzz/run.sh TARGET [SECONDS]     TARGET: tape, varlink, payload, link, config or all; SECONDS defaults to 60
#
# The module sources are compiled directly with swiftc (no SwiftPM), instrumented for coverage, into
# $FUZZ_BUILD (default /tmp/notifyd-fuzz). New inputs go to $FUZZ_BUILD/corpus/TARGET (the committed seeds in
# Fuzz/corpus/TARGET are read, never written); crashes go to Fuzz/findings/TARGET/. Exit status: 0 when no
# target crashed.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
TARGET=${1:?usage: Fuzz/run.sh TARGET|all [SECONDS]}
SECONDS_PER_TARGET=${2:-60}
OUT=${FUZZ_BUILD:-/tmp/notifyd-fuzz}
SWIFTC=${SWIFTC:-swiftc}
FLAGS=(-sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6)
mkdir -p "$OUT/modules"

# Compiles a library module from Sources/NAME into $OUT/modules (object + swiftmodule), again only when its
# sources or a module compiled before it (its dependencies come first) changed.
CHAIN=""
module() {
    local name=$1
    shift
    local stamp="$OUT/modules/$name.stamp"
    local sources
    sources=$(find "Sources/$name" -name '*.swift' | sort)
    local digest
    digest=$( (echo "$CHAIN"; cat $sources Sources/CPlainBytes/include/* Sources/CJSONTape/include/*) | sha1sum | cut -d' ' -f1)
    CHAIN="$CHAIN $digest"
    if [[ -f "$stamp" && $(cat "$stamp") == "$digest" ]]; then return; fi
    echo "compiling module $name"
    # shellcheck disable=SC2086
    "$SWIFTC" "${FLAGS[@]}" -module-name "$name" -emit-module -emit-module-path "$OUT/modules/$name.swiftmodule" \
        -wmo -c -o "$OUT/modules/$name.o" -I "$OUT/modules" "${INCLUDES[@]}" "$@" $sources
    echo "$digest" >"$stamp"
}

# The C shims' headers, and the tape's C reader compiled with the same instrumentation (again only when its source
# or a header it includes changed).
INCLUDES=(-I Sources/CYAML -I Sources/CPlainBytes/include -I Sources/CJSONTape/include)
c_reader() {
    local stamp="$OUT/modules/CJSONTape.stamp" digest
    digest=$(cat Sources/CJSONTape/CJSONTape.c Sources/CJSONTape/include/* Sources/CPlainBytes/include/* | sha1sum |
        cut -d' ' -f1)
    if [[ -f "$stamp" && $(cat "$stamp") == "$digest" ]]; then return; fi
    echo "compiling the tape's C reader"
    clang -fsanitize=fuzzer-no-link,address -O1 -g -I Sources/CPlainBytes/include -I Sources/CJSONTape/include \
        -c Sources/CJSONTape/CJSONTape.c -o "$OUT/modules/CJSONTape.o"
    echo "$digest" >"$stamp"
}

# The modules a target needs, in dependency order.
modules_for() {
    case $1 in
        tape) echo "JSON" ;;
        varlink) echo "JSON Varlink" ;;
        payload) echo "JSON DeepLink" ;;
        link | config) echo "JSON DeepLink CoordinatorGraph" ;;
        *) echo "unknown target $1 (tape, varlink, payload, link, config, all)" >&2; exit 2 ;;
    esac
}

build() {
    local target=$1 objects=("$OUT/modules/CJSONTape.o") m
    CHAIN=""
    c_reader
    for m in $(modules_for "$target"); do
        module "$m"
        objects+=("$OUT/modules/$m.o")
    done
    echo "linking fuzz-$target"
    "$SWIFTC" "${FLAGS[@]}" -module-name "Fuzz_$target" -I "$OUT/modules" "${INCLUDES[@]}" \
        "Fuzz/targets/$target.swift" "${objects[@]}" -lyaml -o "$OUT/fuzz-$target" 2>&1 |
        grep -v "Cannot export local symbol '__asan" || true
    [[ -x "$OUT/fuzz-$target" ]]
}

run() {
    local target=$1
    build "$target"
    mkdir -p "$OUT/corpus/$target" "Fuzz/findings/$target"
    echo "running fuzz-$target for ${SECONDS_PER_TARGET}s"
    local status=0
    FUZZ_CONFIG="$ROOT/config/shop.yaml" "$OUT/fuzz-$target" -max_total_time="$SECONDS_PER_TARGET" -max_len=8192 \
        -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="Fuzz/findings/$target/" \
        "$OUT/corpus/$target" "Fuzz/corpus/$target" 2>&1 | tee "$OUT/$target.log" | grep -E '^#[0-9]+ +(DONE|pulse)|stat::|ERROR|==[0-9]+==|Fatal|SUMMARY' || true
    status=${PIPESTATUS[0]}
    if [[ $status -ne 0 ]]; then echo "fuzz-$target: FAILED (status $status), see $OUT/$target.log"; fi
    return "$status"
}

failed=0
if [[ $TARGET == all ]]; then
    for t in tape varlink payload link config; do run "$t" || failed=1; done
else
    run "$TARGET" || failed=1
fi
exit "$failed"
