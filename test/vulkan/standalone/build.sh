#!/bin/sh
# Builds vulkan_tests (test/vulkan plus the HAL tests of test/mux, on vulkan
# devices only) as one binary that needs nothing but libc and libstdc++:
# LLVM's Support library is linked statically and Vulkan is loaded at run
# time. For machines without LLVM or the Debian packages, e.g. the GPU
# machine (carry the result and a libvulkan1 .deb; run_on_gpu_machine.sh).
#   test/vulkan/standalone/build.sh <output directory>
# SANITIZE=thread (or address) builds it with that sanitizer (about a
# minute on two cores, against a full tree build for POLYMUX_SANITIZE_*);
# it was clean under ThreadSanitizer on lavapipe.
set -e
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
OUT=${1:?output directory}
rm -rf "$OUT/obj"
mkdir -p "$OUT/obj"
SOURCES="$(ls "$ROOT"/modules/targets/vulkan/*.cpp) $ROOT/source/mux/status.cpp $ROOT/source/mux/log.cpp
  $ROOT/source/mux/cache_directory.cpp $ROOT/source/mux/cpu_sync.cpp $ROOT/source/mux/rect_copy.cpp
  $ROOT/source/compiler/vulkan_binary.cpp $ROOT/source/compiler/printf_decoder.cpp
  $ROOT/source/compiler/cpu_capabilities.cpp $ROOT/source/compiler/passes/lower_printf_format.cpp
  $(ls "$ROOT"/test/vulkan/*.cpp) $(ls "$ROOT"/test/mux/*.cpp) $ROOT/test/vulkan/standalone/vulkan_only_registry.cpp
  $ROOT/test/vulkan/standalone/no_compiler.cpp"
SANITIZER=${SANITIZE:+-fsanitize=$SANITIZE -g}
FLAGS="-std=c++20 -O2 -w $SANITIZER -DVK_NO_PROTOTYPES -I$ROOT/include -I$ROOT/source/compiler/include -I$ROOT/source/compiler
  -I$ROOT/source/compiler/spirv/include -I$ROOT/modules/targets/vulkan -I$ROOT/test/mux -isystem /usr/lib/llvm-22/include"
gcc -O2 -w -c /usr/include/volk.c -o "$OUT/obj/volk.o"
for source in $SOURCES; do
  echo "$source"
done | xargs -P "$(nproc)" -I{} sh -c "g++ $(echo $FLAGS) -c {} -o \"$OUT/obj/\$(echo {} | tr / _).o\""
g++ $SANITIZER -o "$OUT/vulkan_tests" "$OUT"/obj/*.o /usr/lib/x86_64-linux-gnu/libSPIRV-Tools.a \
  /usr/lib/x86_64-linux-gnu/libgtest_main.a /usr/lib/x86_64-linux-gnu/libgtest.a \
  /usr/lib/llvm-22/lib/libLLVMSupport.a /usr/lib/llvm-22/lib/libLLVMDemangle.a -lpthread -ldl
echo "built $OUT/vulkan_tests"
