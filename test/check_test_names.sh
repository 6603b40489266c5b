#!/usr/bin/env bash
# Fails when a parameterised test of the given gtest executables shows its
# parameter as raw bytes or an address (gtest's fallback when no PrintTo or
# operator<< is found), so names in reports stay readable.
#
#   check_test_names.sh EXECUTABLE...
set -euo pipefail

status=0
for executable in "$@"; do
  listing="$("$executable" --gtest_list_tests)"
  unreadable="$(grep -E 'GetParam\(\) = .*([0-9]+-byte object|0x[0-9a-f]+)' <<<"$listing" || true)"
  if [ -n "$unreadable" ]; then
    echo "$(basename "$executable"): $(wc -l <<<"$unreadable") parameters print as bytes or addresses, e.g.:"
    head -3 <<<"$unreadable"
    status=1
  fi
done
exit $status
