#!/usr/bin/env python3
"""Writes cl_tests_not_yet_on_vulkan.txt from a real run of cl_tests on a
vulkan device: every failed test whose program did not build, grouped by
the compiler's error message (one group per unsupported construct). Failed
tests whose programs built compute wrong results: they go to a section of
their own, grouped by test, each with its first failure, so that the list
never passes a miscompilation off as a missing construct.

  POLYMUX_DEVICES=vulkan VK_DRIVER_FILES=.../lvp_icd.x86_64.json \\
      <build>/test/cl/cl_tests > run.log 2>&1     # not --gtest_brief
  test/vulkan/not_yet_on_vulkan.py run.log > test/vulkan/cl_tests_not_yet_on_vulkan.txt
"""
import re
import sys

HEADER = """\
# cl_tests (test/cl) that fail on this vulkan device, as a gtest negative
# filter (one pattern a line), grouped by the build error each group fails
# with (a construct the SPIR-V compiler does not support yet) or, for
# programs that build, by test with its first failure. Generated from a run
# by test/vulkan/not_yet_on_vulkan.py. A failure that is a driver's bug
# stays on the list only with a reproducer in doc/targets/vulkan.md and a
# run on another driver that passes it.
"""


# Tests a run cannot include (the script cannot observe them), with why.
UNRUNNABLE = {}


def build_error(lines):
    """The first compiler error of a failed test's output, without the kernel
    name and positions, or None when its programs built."""
    if not any("CL_BUILD_PROGRAM_FAILURE" in line for line in lines):
        return None
    for i, line in enumerate(lines):
        line = line.strip()
        if line.startswith("internal compiler error:"):
            detail = lines[i + 1].strip() if i + 1 < len(lines) else ""
            detail = re.sub(r"^error: ", "", detail)
            detail = re.sub(r" \(word \d+\)", "", detail)
            return re.sub(r"^internal compiler error: ", "", line) + " " + detail
        match = re.match(r"^(?:<program source>:\d+:\d+: )?error: (?:[A-Za-z_]\w*: )?(.*)$", line)
        if match:
            return match.group(1)
    return "the program did not build (no error message)"


def pattern(test):
    """The test on any device: Devices/Suite.Test/* or, for parameters after
    the device (Math/Suite.Test/dev0_<name>_exp_float), */..._exp_float."""
    prefix, _, param = test.rpartition("/")
    if not re.match(r"dev\d+_", param):
        return test
    return prefix + "/*" + device_suffix(param)


def device_suffix(param):
    # Math tests append "_<function>_<type>" to deviceParamName()'s part.
    match = re.search(r"(_[a-z][a-z0-9]*(?:_[a-z][a-z0-9]*)*_(?:float|double|half))$", param)
    return match.group(1) if match else ""


def first_failure(lines):
    for line in lines:
        line = line.strip()
        if line and not line.startswith("[") and not line.endswith(": Failure") and line != "Failed":
            return line
    return "(no message)"


def main():
    groups, real = {}, []
    current, output = None, []
    with open(sys.argv[1], errors="replace") as log:
        for line in log:
            run = re.match(r"^\[ RUN      \] (\S+)", line)
            if run:
                current, output = run.group(1), []
                continue
            failed = re.match(r"^\[  FAILED  \] (\S+?)(,| \(|$)", line)
            if failed and failed.group(1) == current:
                error = build_error(output)
                if error is None:
                    real.append((current, first_failure(output)))
                else:
                    groups.setdefault(error, []).append(pattern(current))
                current = None
                continue
            if current:
                output.append(line)
    sys.stdout.write(HEADER)
    for error in sorted(groups, key=lambda e: (-len(groups[e]), e)):
        sys.stdout.write("\n# %s (%d)\n" % (error, len(groups[error])))
        for name in sorted(set(groups[error])):
            sys.stdout.write(name + "\n")
    for name, why in UNRUNNABLE.items():
        sys.stdout.write("\n# %s (1)\n%s\n" % (why, name))
    if real:
        sys.stdout.write("\n# ---- Wrong results today: the programs build, the results are wrong (SPIR-V\n"
                         "# compiler bugs to fix, not missing constructs); each test with its first failure.\n")
        bases = {}
        for name, failure in real:
            bases.setdefault(name.rpartition("/")[0], []).append((pattern(name), failure))
        for base in sorted(bases):
            sys.stdout.write("\n# %s (%d)\n" % (base, len(bases[base])))
            for name, failure in sorted(bases[base]):
                sys.stdout.write("# %s\n%s\n" % (failure[:150], name))
        sys.stderr.write("%d failed tests with wrong results (their own section)\n" % len(real))


if __name__ == "__main__":
    main()
