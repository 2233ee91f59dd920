#!/usr/bin/env bash
# Fuzz every input parser for SECONDS each (default 60): the Rust parsers with cargo-fuzz
# (libFuzzer), the TypeScript lesson-file parser with a random-input vitest (`lessons`, below).
#
#   bash scripts/fuzz.sh            # every target, 60 s each
#   bash scripts/fuzz.sh 600 sgf    # only `sgf`, 10 minutes
#   bash scripts/fuzz.sh 60 lessons # only the lesson format (no Rust build)
#
# Targets (fuzz/fuzz_targets/): spec (game spec strings), notation (move text of every game),
# move_list and sgf (records), record_file (a record file's bytes as the page imports them: UTF-8
# decoded lossily, then the game's JSON record or the worker's parseRecord, record::parse_any),
# config (preset + key=value overrides, SearchConfig JSON: what the worker hands the engine for
# every search), gtp_response (an engine's output as `mcts match` reads it,
# mcts_playground::gtp::ResponseReader, and its check of setup commands, gtp::check_command). The worker's request checks are TypeScript (`parseRequest`, www/src/protocol.ts),
# fed random requests by www/src/protocol.test.ts.
#
# Target `lessons`: the lesson-file format is parsed in TypeScript (www/src/lessons/format.ts), out
# of cargo-fuzz's reach. `lessons` runs www/src/lessons/format.fuzz.test.ts (vitest; needs `npm ci`
# in www/) for SECONDS with a fresh random seed: random values, the shipped lessons with random
# structural mutations, and their JSON text with random character edits, fed to parseLesson and
# loadLessons, which must never throw anything but their own error sentences (bounded, naming the
# file). Random testing, not coverage-guided; a failure prints the seed to replay it with
# (LESSON_FUZZ_SEED=<n> npx vitest run src/lessons/format.fuzz.test.ts in www/). The same test
# runs with a fixed seed and 3,000 inputs per kind in every `vitest run`.
#
# On the stable toolchain: cargo-fuzz needs nightly-only compiler flags (sanitizer coverage
# instrumentation); RUSTC_BOOTSTRAP=1 lets stable rustc accept them. `--sanitizer none` because
# AddressSanitizer needs an instrumented standard library (nightly's `-Zbuild-std`) and the library
# the targets call has no `unsafe` code (the binary's libc calls, src/bin/mcts/engine_group.rs, are
# not fuzzed); `-a` keeps debug assertions and integer-overflow checks on in the
# optimised build, so an overflow is a crash. Seeds come from fuzz/corpus/<target>/ (committed);
# new inputs libFuzzer finds go to a scratch copy under fuzz/target/corpus/, crashes to
# fuzz/artifacts/<target>/ (reproduce with `cargo fuzz run TARGET fuzz/artifacts/TARGET/crash-...`).
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_PER_TARGET="${1:-60}"
shift || true
ALL=(spec notation move_list sgf record_file config gtp_response lessons)
TARGETS=("$@")
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=("${ALL[@]}")

failed=()
RUST_TARGETS=()
for t in "${TARGETS[@]}"; do
  if [ "$t" = lessons ]; then
    seed=$(( (RANDOM << 15 | RANDOM) ))
    echo "== lessons: ${SECONDS_PER_TARGET}s (vitest, seed $seed)"
    if ! (cd www && LESSON_FUZZ_SEED="$seed" LESSON_FUZZ_SECONDS="$SECONDS_PER_TARGET" \
      npx vitest run src/lessons/format.fuzz.test.ts); then
      failed+=(lessons)
    fi
  else
    RUST_TARGETS+=("$t")
  fi
done
if [ ${#RUST_TARGETS[@]} -eq 0 ]; then
  [ ${#failed[@]} -gt 0 ] && { echo "fuzz: failures in ${failed[*]}"; exit 1; }
  echo "fuzz: lessons, ${SECONDS_PER_TARGET}s, no failure"
  exit 0
fi

export RUSTC_BOOTSTRAP=1
if ! command -v cargo-fuzz >/dev/null; then
  echo "installing cargo-fuzz from crates.io (about 2 minutes)"
  cargo install cargo-fuzz
fi

FLAGS=(--sanitizer none -O -a)
cargo fuzz build "${FLAGS[@]}"

for t in "${RUST_TARGETS[@]}"; do
  scratch="fuzz/target/corpus/$t"
  mkdir -p "$scratch"
  cp -n fuzz/corpus/"$t"/* "$scratch"/ 2>/dev/null || true
  echo "== $t: ${SECONDS_PER_TARGET}s"
  # -max_len 65536: records and configurations longer than libFuzzer's default 4096 bytes;
  # -rss_limit_mb 2048: an input that makes memory grow without bound is a crash.
  if ! cargo fuzz run "${FLAGS[@]}" "$t" "$scratch" -- \
    -max_total_time="$SECONDS_PER_TARGET" -max_len=65536 -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 2>&1 |
    grep -E '^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss_mb|==[0-9]+== ERROR|SUMMARY|thread .* panicked|Done [0-9]+ runs)' ; then
    :
  fi
  # Any one kind of artifact is a failure (`ls crash-* oom-* timeout-*` failed unless all three
  # kinds were there, so a crash was reported as "no crash").
  if compgen -G "fuzz/artifacts/$t/crash-*" >/dev/null || compgen -G "fuzz/artifacts/$t/oom-*" >/dev/null ||
    compgen -G "fuzz/artifacts/$t/timeout-*" >/dev/null; then
    failed+=("$t")
  fi
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: failures in ${failed[*]} (see fuzz/artifacts/ for the cargo-fuzz targets)"
  exit 1
fi
echo "fuzz: ${#TARGETS[@]} target(s), ${SECONDS_PER_TARGET}s each, no crash"
