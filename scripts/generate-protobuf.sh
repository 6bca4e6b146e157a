#!/usr/bin/env bash
# Regenerates Sources/IMWireLeanCloud/Generated/messages2.pb.swift from Spec/leancloud/messages2.proto.
# Needs protoc (Debian: protobuf-compiler) and protoc-gen-swift built from apple/swift-protobuf 1.39.0:
#   git clone https://github.com/apple/swift-protobuf && cd swift-protobuf && git checkout 1.39.0
#   swift build -c release --product protoc-gen-swift
#   export PROTOC_GEN_SWIFT=$PWD/.build/release/protoc-gen-swift
# Never run in CI (the plugin build is slow); the output is committed.
set -euo pipefail
cd "$(dirname "$0")/.."
plugin="${PROTOC_GEN_SWIFT:-$(command -v protoc-gen-swift)}"
protoc --plugin=protoc-gen-swift="$plugin" \
  --swift_opt=Visibility=Public \
  --swift_out=Sources/IMWireLeanCloud/Generated \
  --proto_path=Spec/leancloud Spec/leancloud/messages2.proto
# The heap storage: no dynamic exclusivity checks, fresh instead of copied (why: in the script).
python3 scripts/tune-protobuf-storage.py Sources/IMWireLeanCloud/Generated/messages2.pb.swift
echo "wrote Sources/IMWireLeanCloud/Generated/messages2.pb.swift"
