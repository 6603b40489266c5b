#!/usr/bin/env python3
"""Runs the built `polymux` tool as a user would and checks what it does.

    tool_test.py --tool BIN --checker BIN --icd DIR [--clang BIN] CASE

Each CASE is one ctest test (test/tools/CMakeLists.txt). The checker is
binary_check, which loads a program binary through the ICD loader.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

KERNELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels")


class Tool:
    def __init__(self, path, checker, icd, clang=None):
        self.path = path
        self.checker = checker
        self.icd = icd
        self.clang = clang

    def run(self, *args, expect):
        """Runs `polymux args...`; fails unless it exits with `expect`."""
        result = subprocess.run([self.path, *args], capture_output=True, timeout=120)
        out = result.stdout.decode(errors="replace")
        err = result.stderr.decode(errors="replace")
        if result.returncode != expect:
            fail(f"polymux {' '.join(args)} exited with {result.returncode}, expected {expect}", out, err)
        return out, err

    def check_binary(self, binary, target, mode):
        env = dict(os.environ, OCL_ICD_VENDORS=self.icd, POLYMUX_DEVICES=target)
        result = subprocess.run([self.checker, binary, mode], capture_output=True, env=env, timeout=120)
        if result.returncode != 0:
            fail(f"binary_check {binary} {mode} on {target} failed", result.stdout.decode(), result.stderr.decode())


def fail(message, out="", err=""):
    print(f"FAILED: {message}\n--- stdout ---\n{out}\n--- stderr ---\n{err}")
    sys.exit(1)


def expect_in(text, needle, what, out="", err=""):
    if needle not in text:
        fail(f"{what}: {needle!r} not found", out, err)


def kernel(name):
    return os.path.join(KERNELS, name)


# --- devices -----------------------------------------------------------------


def case_devices(tool):
    out, err = tool.run("devices", expect=0)
    for needle in ("host:0:", "compute units", "work-groups", "global memory", "local memory", "sub-groups",
                   "vector widths", "double", "extensions", "cl_khr_"):
        expect_in(out, needle, "devices", out, err)
    out, err = tool.run("devices", "--brief", "--device", "host", expect=0)
    expect_in(out, "host:0", "devices --brief", out, err)
    if len(out.strip().splitlines()) != 1:
        fail("devices --brief --device host prints one line", out, err)
    out, err = tool.run("devices", "--device", "no_such_target", expect=2)
    expect_in(err, "no device or target named 'no_such_target'", "an unknown device", out, err)


# --- compile -----------------------------------------------------------------


def case_compile_binary(tool):
    with tempfile.TemporaryDirectory() as tmp:
        out_path = os.path.join(tmp, "scale.bin")
        out, err = tool.run("compile", kernel("scale.cl"), "-D", "OFFSET=3", "--device", "host,riscv_sim", "-o",
                            out_path, expect=0)
        expect_in(out, "host:0: 1 kernel (scale)", "compile", out, err)
        host_binary = os.path.join(tmp, "scale.host.bin")
        sim_binary = os.path.join(tmp, "scale.riscv_sim.bin")
        for path in (host_binary, sim_binary):
            if not os.path.exists(path):
                fail(f"{path} was not written", out, err)
        # Each loads and runs on its own device, through the ICD loader...
        tool.check_binary(host_binary, "host", "load")
        tool.check_binary(sim_binary, "riscv_sim", "load")
        # ... and is refused by the other.
        tool.check_binary(host_binary, "riscv_sim", "reject")


def case_compile_error(tool):
    source = kernel("syntax_error.cl")
    out, err = tool.run("compile", source, "--device", "host", "--color=never", expect=1)
    expect_in(err, f"{source}:2:27: error: use of undeclared identifier 'undefined_name'", "diagnostic", out, err)
    expect_in(err, "^", "caret line", out, err)
    expect_in(err, "host:0: build failed", "failure line", out, err)
    if "\x1b[" in err:
        fail("--color=never printed colour codes", out, err)
    out, err = tool.run("compile", source, "--device", "host", "--color=always", expect=1)
    expect_in(err, "\x1b[", "--color=always", out, err)
    # A missing macro's #error, from a header found beside the source.
    out, err = tool.run("compile", kernel("scale.cl"), "--device", "host", "--color=never", expect=1)
    expect_in(err, "scale_helpers.h:2:2: error: \"build with -D OFFSET=<n>\"", "#error in a header", out, err)


def case_compile_emit(tool):
    scale = kernel("scale.cl")
    out, err = tool.run("compile", scale, "-DOFFSET=3", "--device", "host", "--emit=ll", expect=0)
    expect_in(out, "define", "host IR", out, err)
    expect_in(out, "scale", "host IR", out, err)
    out, err = tool.run("compile", scale, "-DOFFSET=3", "--device", "host", "--emit=asm", expect=0)
    expect_in(out, "relocatable object", "host assembly", out, err)
    expect_in(out, "<__polymux_entry_scale>:", "host assembly", out, err)
    out, err = tool.run("compile", scale, "-DOFFSET=3", "--device", "riscv_sim", "--emit=asm", expect=0)
    expect_in(out, "riscv64", "riscv_sim assembly", out, err)
    expect_in(out, "linked program", "riscv_sim assembly", out, err)
    expect_in(out, "ret", "riscv_sim assembly", out, err)
    # No SPIR-V on a CPU target: said, and no output.
    out, err = tool.run("compile", scale, "-DOFFSET=3", "--device", "host", "--emit=spirv", expect=1)
    expect_in(err, "host:0: the host target has no SPIR-V", "a missing stage", out, err)
    with tempfile.TemporaryDirectory() as tmp:
        elf = os.path.join(tmp, "scale.elf")
        out, err = tool.run("compile", scale, "-DOFFSET=3", "--device", "riscv_sim", "--emit=elf", "-o", elf,
                            expect=0)
        with open(elf, "rb") as f:
            header = f.read(20)
        # ELF, and e_machine 243: RISC-V.
        if header[:4] != b"\x7fELF" or int.from_bytes(header[18:20], "little") != 243:
            fail("--emit=elf on riscv_sim did not write a RISC-V ELF file", out, err)


def case_compile_vulkan(tool):
    scale = kernel("scale.cl")
    out, err = tool.run("compile", scale, "-DOFFSET=3", "--device", "vulkan", "--emit=spirv", expect=0)
    expect_in(out, "OpEntryPoint", "vulkan SPIR-V", out, err)
    out, err = tool.run("compile", scale, "-DOFFSET=3", "--device", "vulkan", "--emit=asm", expect=1)
    expect_in(err, "no assembly: its final code is SPIR-V", "a missing stage", out, err)


# --- run ---------------------------------------------------------------------

# x >= 0: a * x + 1 does not cancel, so contracting it into an fma or not
# changes the result by one ULP at most.
AGREE_ARGS = ["--global", "1024", "--local", "64", "--arg", "buf:float:1024:random=0..1", "--arg",
              "buf:int:1024:random=-1000..1000", "--arg", "buf:float:1024", "--arg", "buf:int:1024:fill=7",
              "--arg", "float:2.5", "--arg", "local:int:64"]


def case_run_agree(tool, devices="host,riscv_sim"):
    out, err = tool.run("run", kernel("agree.cl"), "--device", devices, *AGREE_ARGS, expect=0)
    expect_in(out, "argument 2 'f' (float[1024]): same on", "run", out, err)
    expect_in(out, "argument 3 'm' (int[1024]): same on", "run", out, err)
    expect_in(out, "devices agree", "run", out, err)
    for device in devices.split(","):
        expect_in(out, f"\n{device}:0 ", "the time table", out, err)
    if "riscv_sim" in devices:
        expect_in(out, " instructions)", "riscv_sim's retired instructions", out, err)


def case_run_agree_vulkan(tool):
    case_run_agree(tool, "host,riscv_sim,vulkan")


def case_run_agree_spirv(tool):
    """The same kernel as SPIR-V (made by --clang, LLVM's SPIR-V back end)."""
    if not tool.clang:
        fail("run_agree_spirv needs --clang")
    if not os.environ.get("POLYMUX_LLVM_SPIRV") and not shutil.which("llvm-spirv-15") \
            and not os.path.exists("/usr/bin/llvm-spirv-15"):
        print("skipped: llvm-spirv-15 is not installed, so no device reads SPIR-V")
        return
    with tempfile.TemporaryDirectory() as tmp:
        spirv = os.path.join(tmp, "agree.spv")
        result = subprocess.run([tool.clang, "--target=spirv64", "-cl-std=CL1.2", "-Xclang", "-finclude-default-header",
                                 "-c", kernel("agree.cl"), "-o", spirv], capture_output=True, timeout=120)
        if result.returncode != 0:
            fail("clang could not make SPIR-V", result.stdout.decode(), result.stderr.decode())
        out, err = tool.run("compile", spirv, "--device", "host", "--emit=ll", expect=0)
        expect_in(out, "define", "host IR from SPIR-V", out, err)
        out, err = tool.run("run", spirv, "--device", "host,riscv_sim", *AGREE_ARGS, expect=0)
        expect_in(out, "devices agree", "run from SPIR-V", out, err)


def case_run_float_difference(tool):
    args = ["run", kernel("differs.cl"), "--device", "host,riscv_sim", "--global", "256", "--arg",
            "buf:float:256:random", "--arg", "buf:float:256", "--arg", "buf:int:256"]
    # One ULP apart: within the default tolerance...
    out, err = tool.run(*args, expect=0)
    expect_in(out, "argument 1 'f' (float[256]): same on 2 devices (within 1 ULP", "default tolerance", out, err)
    # ... not within none.
    out, err = tool.run(*args, "--ulp", "0", expect=1)
    expect_in(out, "argument 1 'f' (float[256]): 256 of 256 values differ by more than 0 ULP", "--ulp 0", out, err)
    expect_in(out, "(1 ulp)", "--ulp 0", out, err)
    expect_in(out, "... 248 more", "--ulp 0", out, err)
    expect_in(out, "devices disagree", "--ulp 0", out, err)


def case_run_integer_difference(tool):
    out, err = tool.run("run", kernel("differs.cl"), "-D", "INTEGER_DIFFERENCE", "--device", "host,riscv_sim",
                        "--global", "64", "--arg", "buf:float:[" + ",".join(["0.5"] * 64) + "]", "--arg",
                        "buf:float:64", "--arg", "buf:int:64:zeros", expect=1)
    expect_in(out, "argument 2 'n' (int[64]): 1 of 64 values differ", "integer difference", out, err)
    lines = [line.split() for line in out.splitlines()]
    if ["5", "5", "6"] not in lines:
        fail("the table does not show index 5 with 5 on host and 6 on riscv_sim", out, err)
    expect_in(out, "devices disagree", "integer difference", out, err)


def case_run_usage(tool):
    out, err = tool.run("run", kernel("agree.cl"), "--device", "host", "--global", "64", "--arg",
                        "buf:float:64:random", expect=2)
    expect_in(err, "kernel 'mix' takes 6 arguments, --arg gave 1", "argument count", out, err)
    out, err = tool.run("run", kernel("agree.cl"), "--device", "host", "--global", "64", "--arg", "buf:int:64",
                        "--arg", "buf:int:64", "--arg", "buf:float:64", "--arg", "buf:int:64", "--arg", "float:1",
                        "--arg", "local:256", expect=2)
    expect_in(err, "argument 0 'x' (float*) is of type float; --arg gave int", "argument type", out, err)


CASES = {name[len("case_"):]: function for name, function in globals().items() if name.startswith("case_")}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tool", required=True)
    parser.add_argument("--checker", required=True)
    parser.add_argument("--icd", required=True)
    parser.add_argument("--clang", help="Clang with the SPIR-V back end, for the SPIR-V cases")
    parser.add_argument("case", choices=sorted(CASES))
    args = parser.parse_args()
    CASES[args.case](Tool(args.tool, args.checker, args.icd, args.clang))
    print(f"ok: {args.case}")


if __name__ == "__main__":
    main()
