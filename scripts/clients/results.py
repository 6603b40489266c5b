#!/usr/bin/env python3
"""Counts the results of one client test run for scripts/test-clients.

    results.py clblast LOG EXIT_STATUS
    results.py pytest JUNIT_XML EXIT_STATUS

Prints one line: `<passed> <failed> <skipped> <note>`, the note possibly
empty. Only the standard library.

clblast: LOG is the output of one clblast_test_* binary. The counts are the
sums of the binary's own "N test(s) passed/skipped/failed" lines over its
precisions. CLBlast counts a case whose kernel failed to compile ('\\' in
its progress lines) as skipped: the note says how many there were. A
precision the device lacks ("All tests skipped: Unsupported precision",
half without cl_khr_fp16, double without fp64) adds no count; the note
names it. A binary that ended on a signal, or with a non-zero status but
no failed test, adds one failure, and the note says so.

pytest: JUNIT_XML is the report of one pytest run (--junitxml). Errors
(a failing fixture or collection) count as failures; skipped and xfailed
tests as skipped. A missing or empty report (the process died) is one
failure.
"""

import re
import sys
import xml.etree.ElementTree as ET

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def clblast(log_path, status):
    passed = failed = skipped = 0
    compile_errors = 0
    unsupported = []
    routine = None
    try:
        text = open(log_path, errors="replace").read()
    except OSError:
        text = ""
    for line in ANSI.sub("", text).splitlines():
        m = re.match(r"\* Starting tests for the '(\w+)' routine", line)
        if m:
            routine = m.group(1)
            continue
        m = re.match(r"\s+(\d+) test\(s\) (passed|skipped|failed)$", line)
        if m:
            n = int(m.group(1))
            if m.group(2) == "passed":
                passed += n
            elif m.group(2) == "skipped":
                skipped += n
            else:
                failed += n
            continue
        if line.startswith("* All tests skipped: Unsupported precision") and routine:
            unsupported.append(routine)
            continue
        # Progress lines: one symbol per case, nothing else.
        if re.fullmatch(r"\s+[:.X/\\o-]+", line):
            compile_errors += line.count("\\")
    notes = []
    if compile_errors:
        notes.append(f"{compile_errors} skipped for kernel compilation errors")
    if unsupported:
        notes.append("not run (unsupported precision): " + " ".join(dict.fromkeys(unsupported)))
    if status >= 128 or status < 0:
        failed += 1
        notes.append(f"killed by signal {status - 128 if status >= 128 else -status}")
    elif status == 124:
        failed += 1
        notes.append("timed out")
    elif status != 0 and failed == 0:
        failed += 1
        notes.append(f"exit status {status}")
    return passed, failed, skipped, "; ".join(notes)


def pytest(xml_path, status):
    try:
        root = ET.parse(xml_path).getroot()
    except (OSError, ET.ParseError):
        if status == 124:
            return 0, 1, 0, "timed out, no report"
        return 0, 1, 0, f"no report (exit status {status})"
    suites = [root] if root.tag == "testsuite" else root.findall("testsuite")
    tests = failures = errors = skips = 0
    for s in suites:
        tests += int(s.get("tests", 0))
        failures += int(s.get("failures", 0))
        errors += int(s.get("errors", 0))
        skips += int(s.get("skipped", 0))
    note = ""
    if status == 124:
        note = "timed out"
    return tests - failures - errors - skips, failures + errors, skips, note


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("clblast", "pytest"):
        sys.exit(__doc__)
    kind, path, status = sys.argv[1], sys.argv[2], int(sys.argv[3])
    result = clblast(path, status) if kind == "clblast" else pytest(path, status)
    print(*result)


if __name__ == "__main__":
    main()
