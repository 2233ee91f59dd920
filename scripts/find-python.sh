# Sourced by scripts/test-python.sh and scripts/release.sh: sets `py` to the first Python 3.11 or
# later on PATH (python3.13, python3.12, python3.11, python3), or to the empty string when there
# is none (the caller says what that means for it).
py=""
for c in python3.13 python3.12 python3.11 python3; do
  if command -v "$c" >/dev/null && "$c" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
    py=$c
    break
  fi
done
