#!/usr/bin/env bash
# Fuzz every input parser with cargo-fuzz (libFuzzer) for SECONDS each (default 60).
#
#   bash scripts/fuzz.sh            # every target, 60 s each
#   bash scripts/fuzz.sh 600 sgf    # only `sgf`, 10 minutes
#
# Targets (fuzz/fuzz_targets/): spec (game spec strings), notation (move text of every game),
# move_list and sgf (records), record_file (a record file's bytes as the page imports them: UTF-8
# decoded lossily, then the game's JSON record or the worker's parseRecord, record::parse_any),
# config (preset + key=value overrides, SearchConfig JSON), request (the engine's request decoder,
# src/request.rs).
#
# On the stable toolchain: cargo-fuzz needs nightly-only compiler flags (sanitizer coverage
# instrumentation); RUSTC_BOOTSTRAP=1 lets stable rustc accept them. `--sanitizer none` because
# AddressSanitizer needs an instrumented standard library (nightly's `-Zbuild-std`) and the crate
# has no `unsafe` code; `-a` keeps debug assertions and integer-overflow checks on in the
# optimised build, so an overflow is a crash. Seeds come from fuzz/corpus/<target>/ (committed);
# new inputs libFuzzer finds go to a scratch copy under fuzz/target/corpus/, crashes to
# fuzz/artifacts/<target>/ (reproduce with `cargo fuzz run TARGET fuzz/artifacts/TARGET/crash-...`).
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_PER_TARGET="${1:-60}"
shift || true
ALL=(spec notation move_list sgf record_file config request)
TARGETS=("$@")
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=("${ALL[@]}")

export RUSTC_BOOTSTRAP=1
if ! command -v cargo-fuzz >/dev/null; then
  echo "installing cargo-fuzz from crates.io (about 2 minutes)"
  cargo install cargo-fuzz
fi

FLAGS=(--sanitizer none -O -a)
cargo fuzz build "${FLAGS[@]}"

failed=()
for t in "${TARGETS[@]}"; do
  scratch="fuzz/target/corpus/$t"
  mkdir -p "$scratch"
  cp -n fuzz/corpus/"$t"/* "$scratch"/ 2>/dev/null || true
  echo "== $t: ${SECONDS_PER_TARGET}s"
  # -max_len 65536: records and requests longer than libFuzzer's default 4096 bytes;
  # -rss_limit_mb 2048: an input that makes memory grow without bound is a crash.
  if ! cargo fuzz run "${FLAGS[@]}" "$t" "$scratch" -- \
    -max_total_time="$SECONDS_PER_TARGET" -max_len=65536 -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 2>&1 |
    grep -E '^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss_mb|==[0-9]+== ERROR|SUMMARY|thread .* panicked|Done [0-9]+ runs)' ; then
    :
  fi
  if ls fuzz/artifacts/"$t"/crash-* fuzz/artifacts/"$t"/oom-* fuzz/artifacts/"$t"/timeout-* >/dev/null 2>&1; then
    failed+=("$t")
  fi
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: failures in ${failed[*]} (see fuzz/artifacts/)"
  exit 1
fi
echo "fuzz: ${#TARGETS[@]} target(s), ${SECONDS_PER_TARGET}s each, no crash"
