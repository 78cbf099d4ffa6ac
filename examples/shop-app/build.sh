#!/bin/bash
# Builds the example app of docs/codegen.md: the Swift that `notifyctl codegen swift` generates from
# config/shop.yaml, compiled with the app's coordinators (examples/shop-app) in Swift 6 mode.
#
#   bash examples/shop-app/build.sh [OUTPUT_DIR]      # default .build/shop-app; the app is OUTPUT_DIR/shop-app
#
# NOTIFYCTL names the notifyctl to generate with (default .build/debug/notifyctl), SWIFTC the compiler.
set -euo pipefail
cd "$(dirname "$0")/../.."
out="${1:-.build/shop-app}"
notifyctl="${NOTIFYCTL:-.build/debug/notifyctl}"
mkdir -p "$out"
"$notifyctl" codegen swift config/shop.yaml -o "$out" >/dev/null
"${SWIFTC:-swiftc}" -swift-version 6 -o "$out/shop-app" examples/shop-app/*.swift "$out/AppLink.swift"
echo "$out/shop-app"
