// Shared virtual memory in a context of every device of the platform: one
// SVM allocation has the same address on the host and on every device that
// reports SVM (host and riscv_sim share riscv_sim's identity-mapped DRAM),
// and devices without SVM in the same context refuse SVM commands and
// arguments. Skipped unless two devices report SVM.
#include "cl_test.h"

#include <algorithm>
#include <vector>

namespace {

using namespace cltest;

constexpr const char *kSource = R"CLC(
typedef struct Node {
  global struct Node *next;
  int value;
} Node;

// One work-item: adds `step` to every node of the list.
kernel void bump(global Node *head, int step) {
  for (global Node *node = head; node; node = node->next)
    node->value += step;
}
)CLC";

struct Node {
  Node *next;
  cl_int value;
};

std::vector<cl_device_id> platformDevices() {
  constexpr cl_device_type kEveryType =
      CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM;
  cl_uint count = 0;
  if (clGetDeviceIDs(platformUnderTest(), kEveryType, 0, nullptr, &count) != CL_SUCCESS)
    return {};
  std::vector<cl_device_id> devices(count);
  if (clGetDeviceIDs(platformUnderTest(), kEveryType, count, devices.data(), nullptr) != CL_SUCCESS)
    return {};
  return devices;
}

bool reportsSvm(cl_device_id device) {
  return deviceInfo<cl_device_svm_capabilities>(device, CL_DEVICE_SVM_CAPABILITIES) & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER;
}

TEST(SvmMultiDevice, OneListWalkedByEveryDevice) {
  std::vector<cl_device_id> devices = platformDevices();
  std::vector<cl_device_id> svmDevices;
  for (cl_device_id device : devices)
    if (reportsSvm(device))
      svmDevices.push_back(device);
  if (svmDevices.size() < 2)
    GTEST_SKIP() << "fewer than two devices report SVM";
  cl_int err = CL_SUCCESS;
  Context context(clCreateContext(nullptr, cl_uint(devices.size()), devices.data(), nullptr, nullptr, &err));
  ASSERT_CL(err);
  const char *source = kSource;
  Program program(clCreateProgramWithSource(context, 1, &source, nullptr, &err));
  ASSERT_CL(err);
  ASSERT_CL(clBuildProgram(program, cl_uint(svmDevices.size()), svmDevices.data(), "", nullptr, nullptr));

  constexpr int kNodes = 50;
  auto *nodes = static_cast<Node *>(clSVMAlloc(context, CL_MEM_READ_WRITE, kNodes * sizeof(Node), 0));
  ASSERT_NE(nodes, nullptr);
  std::vector<Queue> queues;
  for (cl_device_id device : devices) {
    queues.emplace_back(clCreateCommandQueueWithProperties(context, device, nullptr, &err));
    ASSERT_CL(err);
  }
  // Built on the host under a map on the first SVM device's queue; every
  // device then bumps it.
  cl_command_queue first = queues[std::find(devices.begin(), devices.end(), svmDevices[0]) - devices.begin()];
  ASSERT_CL(clEnqueueSVMMap(first, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, nodes, kNodes * sizeof(Node), 0, nullptr,
                            nullptr));
  for (int i = 0; i < kNodes; ++i)
    nodes[i] = Node{i + 1 < kNodes ? &nodes[i + 1] : nullptr, i};
  ASSERT_CL(clEnqueueSVMUnmap(first, nodes, 0, nullptr, nullptr));
  ASSERT_CL(clFinish(first));

  Kernel bump(clCreateKernel(program, "bump", &err));
  ASSERT_CL(err);
  ASSERT_CL(clSetKernelArgSVMPointer(bump, 0, nodes));
  cl_int expectedBump = 0;
  for (size_t d = 0; d < devices.size(); ++d) {
    const cl_int step = cl_int(d + 1);
    ASSERT_CL(clSetKernelArg(bump, 1, sizeof(step), &step));
    const size_t one = 1;
    if (!reportsSvm(devices[d])) {
      EXPECT_CL_ERR(CL_INVALID_OPERATION,
                    clEnqueueSVMMap(queues[d], CL_TRUE, CL_MAP_READ, nodes, 16, 0, nullptr, nullptr))
          << deviceString(devices[d], CL_DEVICE_NAME);
      continue;
    }
    ASSERT_CL(clEnqueueNDRangeKernel(queues[d], bump, 1, nullptr, &one, nullptr, 0, nullptr, nullptr));
    ASSERT_CL(clFinish(queues[d]));
    expectedBump += step;
  }
  ASSERT_CL(clEnqueueSVMMap(first, CL_TRUE, CL_MAP_READ, nodes, kNodes * sizeof(Node), 0, nullptr, nullptr));
  for (int i = 0; i < kNodes; ++i) {
    EXPECT_EQ(nodes[i].value, i + expectedBump) << i;
    EXPECT_EQ(nodes[i].next, i + 1 < kNodes ? &nodes[i + 1] : nullptr) << i;
  }
  ASSERT_CL(clEnqueueSVMUnmap(first, nodes, 0, nullptr, nullptr));
  ASSERT_CL(clFinish(first));
  clSVMFree(context, nodes);
}

} // namespace
