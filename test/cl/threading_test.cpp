// Several host threads, each with its own queue, kernel and buffers, on one
// shared context and program.
#include "cl_test.h"
#include "test_kernels.h"

#include <thread>

using namespace cltest;

namespace {
class ThreadingTest : public DeviceTest {};
} // namespace

TEST_P(ThreadingTest, QueuesPerThreadOnOneContext) {
  Program program = build(kernels::arithmetic);
  ASSERT_TRUE(program);
  constexpr int kThreads = 4, kIterations = 12;
  constexpr size_t n = 4096;
  std::vector<std::string> failures(kThreads);
  auto work = [&](int id) {
    auto fail = [&](const std::string &what, cl_int err) {
      if (failures[id].empty())
        failures[id] = what + ": " + errorName(err);
    };
    cl_int err = CL_SUCCESS;
    Queue queue(clCreateCommandQueueWithProperties(context_, device(), nullptr, &err));
    if (err != CL_SUCCESS)
      return fail("create queue", err);
    Kernel add(clCreateKernel(program, "add_value", &err));
    if (err != CL_SUCCESS)
      return fail("create kernel", err);
    for (int it = 0; it < kIterations; ++it) {
      std::vector<cl_int> host(n);
      for (size_t i = 0; i < n; ++i)
        host[i] = static_cast<cl_int>(i) * id - it;
      Mem mem(
          clCreateBuffer(context_, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_int), host.data(), &err));
      if (err != CL_SUCCESS)
        return fail("create buffer", err);
      cl_mem m = mem;
      cl_int value = id * 100 + it;
      if ((err = clSetKernelArg(add, 0, sizeof(m), &m)) != CL_SUCCESS ||
          (err = clSetKernelArg(add, 1, sizeof(value), &value)) != CL_SUCCESS)
        return fail("set arg", err);
      size_t global = n;
      Event done;
      if ((err = clEnqueueNDRangeKernel(queue, add, 1, nullptr, &global, nullptr, 0, nullptr, done.out())) !=
          CL_SUCCESS)
        return fail("enqueue", err);
      std::vector<cl_int> result(n, 0);
      if ((err = clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, n * sizeof(cl_int), result.data(), 0, nullptr, nullptr)) !=
          CL_SUCCESS)
        return fail("read", err);
      for (size_t i = 0; i < n; ++i)
        if (result[i] != host[i] + value) {
          failures[id] = "thread " + std::to_string(id) + " iteration " + std::to_string(it) + " element " +
                         std::to_string(i) + ": got " + std::to_string(result[i]) + ", want " +
                         std::to_string(host[i] + value);
          return;
        }
      if (eventStatus(done) != CL_COMPLETE)
        return fail("kernel event not complete after a blocking read", CL_SUCCESS);
    }
  };
  std::vector<std::thread> threads;
  for (int id = 0; id < kThreads; ++id)
    threads.emplace_back(work, id);
  for (std::thread &t : threads)
    t.join();
  for (int id = 0; id < kThreads; ++id)
    EXPECT_EQ(failures[id], "") << "thread " << id;
}

TEST_P(ThreadingTest, ConcurrentBuildsAndEvents) {
  // Threads build programs and wait on a shared user event concurrently.
  cl_int err = CL_SUCCESS;
  Event gate(clCreateUserEvent(context_, &err));
  ASSERT_CL(err);
  constexpr int kThreads = 3;
  std::vector<cl_int> results(kThreads, -1);
  std::vector<std::thread> threads;
  for (int id = 0; id < kThreads; ++id)
    threads.emplace_back([&, id] {
      cl_int e = CL_SUCCESS;
      std::string source(kernels::program_info);
      const char *text = source.c_str();
      Program program(clCreateProgramWithSource(context_, 1, &text, nullptr, &e));
      cl_device_id dev = device();
      std::string options = "-DVALUE=" + std::to_string(100 + id);
      if (e != CL_SUCCESS || (e = clBuildProgram(program, 1, &dev, options.c_str(), nullptr, nullptr)) != CL_SUCCESS)
        return;
      Kernel k(clCreateKernel(program, "defined_value", &e));
      Queue queue(clCreateCommandQueueWithProperties(context_, dev, nullptr, &e));
      Mem out(clCreateBuffer(context_, CL_MEM_READ_WRITE, sizeof(cl_int), nullptr, &e));
      cl_mem m = out;
      clSetKernelArg(k, 0, sizeof(m), &m);
      size_t global = 1;
      if (clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, nullptr, 1, gate.ptr(), nullptr) != CL_SUCCESS)
        return;
      cl_int value = -1;
      if (clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof(value), &value, 0, nullptr, nullptr) == CL_SUCCESS)
        results[id] = value;
    });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  // EXPECT, not ASSERT: returning with the threads still joinable would
  // terminate the process in std::thread's destructor.
  EXPECT_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  for (std::thread &t : threads)
    t.join();
  for (int id = 0; id < kThreads; ++id)
    EXPECT_EQ(results[id], 100 + id) << "thread " << id;
}

CLTEST_INSTANTIATE(ThreadingTest);
