#!/usr/bin/env bash
# Builds the Debian package from a finished build directory and checks what
# it holds: the driver where its ICD file says, the ICD file itself, the
# polymux tool, the public headers, the documentation, and dependencies on
# the LLVM libraries the driver links and on an OpenCL ICD loader.
#
#   test/packaging/check_deb.sh <build directory>
set -euo pipefail
build="$1"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

cpack --config "$build/CPackConfig.cmake" -B "$out" >"$out/cpack.log" 2>&1 || { cat "$out/cpack.log"; exit 1; }
deb=$(ls "$out"/polymux_*_amd64.deb)
echo "package: $(basename "$deb")"

fail=0
expect() { # what, grep pattern, text
  if ! grep -qE -- "$2" <<<"$3"; then
    echo "missing: $1"
    fail=1
  fi
}

files=$(dpkg-deb -c "$deb" | awk '{print $NF}')
expect "the ICD file" '^\./etc/OpenCL/vendors/polymux\.icd$' "$files"
expect "the driver" '^\./usr/lib/(x86_64-linux-gnu/)?libpolymux\.so$' "$files"
expect "the polymux tool" '^\./usr/bin/polymux$' "$files"
expect "the extension header" '^\./usr/include/CL/cl_ext_polymux\.h$' "$files"
expect "the README" '^\./usr/share/doc/polymux/README\.md$' "$files"
expect "the extension specifications" '^\./usr/share/doc/polymux/extensions/cl_polymux_kernel_exit\.md$' "$files"
if grep -qE '(^\./usr/local/|/work/|/tmp/|/build)' <<<"$files"; then
  echo "paths of the building machine in the package:"
  grep -E '(^\./usr/local/|/work/|/tmp/|/build)' <<<"$files"
  fail=1
fi

# The ICD file must name the packaged library.
icd=$(dpkg-deb --fsys-tarfile "$deb" | tar -xO ./etc/OpenCL/vendors/polymux.icd)
library=$(grep -E 'libpolymux\.so$' <<<"$files" | sed 's|^\.||')
if [ "$icd" != "$library" ]; then
  echo "the ICD file names '$icd', the package installs '$library'"
  fail=1
fi

depends=$(dpkg-deb -f "$deb" Depends)
expect "a dependency on libllvm22" 'libllvm22' "$depends"
expect "a dependency on libclang-cpp22" 'libclang-cpp22' "$depends"
expect "a dependency on an ICD loader" 'ocl-icd-libopencl1' "$depends"
expect "the opencl-icd virtual package" 'opencl-icd' "$(dpkg-deb -f "$deb" Provides)"

if [ "$fail" -ne 0 ]; then
  dpkg-deb -I "$deb"
  exit 1
fi
echo "ok: $(wc -l <<<"$files") entries, Depends: $depends"
