#!/usr/bin/env python3
"""Counts the results of one client test run for scripts/test-clients.

    results.py clblast LOG EXIT_STATUS [VERSION]
    results.py pytest JUNIT_XML EXIT_STATUS [VERSION]

Prints one line: `<passed> <failed> <skipped> <no_verdict> <note>`, the
note possibly empty. Only the standard library.

no_verdict counts the cases of tests that upstream-defects.txt (next to
this script) lists for this client VERSION (clblast-tests' package version,
pyopencl's version): their result says nothing about the device, so they
are neither passed nor failed. The note names them.

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

import os
import re
import sys
import xml.etree.ElementTree as ET

ANSI = re.compile(r"\x1b\[[0-9;]*m")
DEFECTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "upstream-defects.txt")


def upstream_defects(suite, version):
    """The entries of upstream-defects.txt for this suite and version:
    a list of (test, failure regex or None)."""
    entries = []
    with open(DEFECTS) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = [x.strip() for x in line.split(" | ")]
            if len(fields) != 4:
                sys.exit(f"{DEFECTS}: not four fields: {line}")
            kind, test, for_version, failure = fields
            if kind == suite and for_version in ("*", version):
                entries.append((test, None if failure == "-" else re.compile(failure)))
    return entries


def clblast(log_path, status, version):
    passed = failed = skipped = no_verdict = 0
    compile_errors = 0
    unsupported = []
    routine = None
    binary = os.path.basename(log_path).removesuffix(".log").removeprefix("clblast_test_")
    defective = {t.split(":", 1)[1] for t, _ in upstream_defects("clblast", version)
                 if t.split(":", 1)[0] == binary}
    defect_failures = {}
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
            if routine in defective and m.group(2) != "skipped":
                no_verdict += n
                if m.group(2) == "failed":
                    defect_failures[routine] = defect_failures.get(routine, 0) + n
                else:
                    defect_failures.setdefault(routine, 0)
            elif m.group(2) == "passed":
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
    for r, n in defect_failures.items():
        notes.append(f"{r}: no verdict, a defect of the test ({n} failed)"
                     if n else f"{r}: listed as a defect of the test, but none failed")
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
    elif status != 0 and failed == 0 and not any(defect_failures.values()):
        # CLBlast's binaries exit with status 1 when a case failed.
        failed += 1
        notes.append(f"exit status {status}")
    return passed, failed, skipped, no_verdict, "; ".join(notes)


def pytest(xml_path, status, version):
    try:
        root = ET.parse(xml_path).getroot()
    except (OSError, ET.ParseError):
        if status == 124:
            return 0, 1, 0, 0, "timed out, no report"
        return 0, 1, 0, 0, f"no report (exit status {status})"
    suites = [root] if root.tag == "testsuite" else root.findall("testsuite")
    tests = failures = errors = skips = 0
    for s in suites:
        tests += int(s.get("tests", 0))
        failures += int(s.get("failures", 0))
        errors += int(s.get("errors", 0))
        skips += int(s.get("skipped", 0))
    # A listed test counts as no verdict only when it failed (not errored)
    # with the listed message.
    test_file = os.path.basename(xml_path).removesuffix(".xml") + ".py"
    defects = [(t.split("::", 1)[1], message) for t, message in upstream_defects("pytest", version)
               if t.split("::", 1)[0] == test_file]
    no_verdict = 0
    named = []
    for case in root.iter("testcase"):
        failure = case.find("failure")
        name = case.get("name", "").split("[", 1)[0]
        if failure is None:
            continue
        for test, message in defects:
            if name == test and message and message.match(failure.get("message", "")):
                no_verdict += 1
                named.append(name)
                break
    notes = []
    if named:
        notes.append("no verdict, a defect of the test: " + " ".join(dict.fromkeys(named)))
    if status == 124:
        notes.append("timed out")
    return (tests - failures - errors - skips, failures + errors - no_verdict, skips, no_verdict,
            "; ".join(notes))


def main():
    if len(sys.argv) not in (4, 5) or sys.argv[1] not in ("clblast", "pytest"):
        sys.exit(__doc__)
    kind, path, status = sys.argv[1], sys.argv[2], int(sys.argv[3])
    version = sys.argv[4] if len(sys.argv) == 5 else ""
    result = (clblast if kind == "clblast" else pytest)(path, status, version)
    print(*result)


if __name__ == "__main__":
    main()
