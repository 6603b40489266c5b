#!/bin/sh
# Beside vulkan_tests (build.sh) and a libvulkan1 .deb on the GPU machine: unpack the Vulkan loader, point it at NVIDIA's ICD and
# run the vulkan runtime's tests (and the HAL tests' vulkan instances).
cd "$(dirname "$0")"
mkdir -p prefix && dpkg -x libvulkan1_*.deb prefix
export LD_LIBRARY_PATH=$PWD/prefix/usr/lib/x86_64-linux-gnu:$LD_LIBRARY_PATH
for icd in /usr/share/vulkan/icd.d/nvidia_icd.json /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json; do
  [ -f "$icd" ] && export VK_DRIVER_FILES=$icd VK_ICD_FILENAMES=$icd && break
done
echo "ICD: $VK_DRIVER_FILES"
nvidia-smi -L
POLYMUX_LOG=debug POLYMUX_CACHE=0 ./vulkan_tests "$@"
