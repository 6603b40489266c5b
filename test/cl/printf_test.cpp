// OpenCL C printf through the whole stack: the output reaches the process's
// stdout when the command completes (clFinish, clWaitForEvents), matches the
// C library's snprintf of the same values, keeps each work-item's lines in
// order, and a kernel printing more than the buffer holds loses output
// (printf returns -1) without failing.
#include "cl_test.h"
#include "stdout_capture.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <map>
#include <sstream>

using namespace cltest;

namespace {

std::string cFormat(const char *format, ...) __attribute__((format(printf, 1, 2)));
std::string cFormat(const char *format, ...) {
  char text[1024];
  va_list args;
  va_start(args, format);
  int size = std::vsnprintf(text, sizeof(text), format, args);
  va_end(args);
  return std::string(text, size > 0 ? std::min<size_t>(size, sizeof(text) - 1) : 0);
}

std::vector<std::string> lines(const std::string &text) {
  std::vector<std::string> result;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    result.push_back(line);
  return result;
}

class PrintfTest : public DeviceTest {
protected:
  /// Runs `k` over `global` work-items (groups of `local`, 0: any) and
  /// returns what it printed, waiting with clFinish.
  bool hasDouble() { return deviceInfo<cl_device_fp_config>(device(), CL_DEVICE_DOUBLE_FP_CONFIG) != 0; }

  std::string runAndCapture(cl_kernel k, size_t global, size_t local = 0) {
    StdoutCapture capture;
    if (!capture.begin()) {
      ADD_FAILURE() << "cannot redirect stdout";
      return {};
    }
    cl_int enqueued =
        clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, local ? &local : nullptr, 0, nullptr, nullptr);
    cl_int finished = clFinish(queue_);
    std::string text = capture.end();
    EXPECT_CL(enqueued);
    EXPECT_CL(finished);
    return text;
  }
};

TEST_P(PrintfTest, ScalarConversionsMatchSnprintf) {
  Program program = build(R"(
kernel void p(int i, long l, float f, char c, short s, uchar uc, ulong ul) {
  printf("%d|%5i|%-5d|%05d|%+d|% d|%.3d\n", i, i, i, i, i, i, i);
  printf("%o|%#o|%u|%x|%#X|%8.4x\n", i, i, i, i, i, i);
  printf("%ld|%lu|%lx|%lo\n", l, ul, l, ul);
  printf("%hhd|%hhu|%hd|%hu|%c|%4c|%-3c|\n", c, uc, s, s, c, c, c);
  printf("%f|%.2f|%10.3e|%E|%g|%G|%a|%A|%F\n", f, f, f, f, f, f, f, f, f);
  printf("%f|%f|%e\n", 1.0f / 0.0f, -1.0f / 0.0f, 0.0f);
  printf("%%|100%%|%%d|%s|%.1s|%5s|\n", "lit", "foo", "ab");
}
)");
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "p");
  const cl_int i = -123456;
  const cl_long l = -9876543210123;
  const cl_float f = 10.3456f;
  const cl_char c = 'A';
  const cl_short s = -300;
  const cl_uchar uc = 200;
  const cl_ulong ul = 0xfedcba9876543210u;
  setArgs(k, i, l, f, c, s, uc, ul);
  std::string expected;
  expected += cFormat("%d|%5i|%-5d|%05d|%+d|% d|%.3d\n", i, i, i, i, i, i, i);
  expected += cFormat("%o|%#o|%u|%x|%#X|%8.4x\n", i, i, i, i, i, i);
  expected += cFormat("%ld|%lu|%lx|%lo\n", long(l), (unsigned long)ul, long(l), (unsigned long)ul);
  expected += cFormat("%hhd|%hhu|%hd|%hu|%c|%4c|%-3c|\n", c, uc, s, s, c, c, c);
  expected += cFormat("%f|%.2f|%10.3e|%E|%g|%G|%a|%A|%F\n", f, f, f, f, f, f, f, f, f);
  expected += cFormat("%f|%f|%e\n", HUGE_VAL, -HUGE_VAL, 0.0);
  expected += "%|100%|%d|lit|f|   ab|\n";
  EXPECT_EQ(runAndCapture(k, 1), expected);
}

TEST_P(PrintfTest, DoubleConversionsMatchSnprintf) {
  if (!hasDouble())
    GTEST_SKIP() << "no fp64";
  Program program = build(R"(
kernel void p(double d) {
  printf("%f|%.10f|%-12.4e|%+g|%.3a\n", d, d, d, d, d);
  printf("%v2lf|%.2v4lf\n", (double2)(0.25, -0.5), (double4)(d, -d, 1.0 / 3.0, 0.0));
}
)");
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "p");
  const cl_double d = 789456123.0625;
  setArgs(k, d);
  std::string expected = cFormat("%f|%.10f|%-12.4e|%+g|%.3a\n", d, d, d, d, d) +
                         cFormat("%f,%f|%.2f,%.2f,%.2f,%.2f\n", 0.25, -0.5, d, -d, 1.0 / 3.0, 0.0);
  EXPECT_EQ(runAndCapture(k, 1), expected);
}

TEST_P(PrintfTest, VectorsJoinElementsWithCommas) {
  Program program = build(R"(
kernel void p(float4 f, global const int *ints) {
  printf("%2.2v4hlf\n", f);
  printf("%#v2hhx|%#v2hx|%#v2hlx|%v2ld\n", (uchar2)(0xFA, 0xFB), (ushort2)(0x1234, 0x8765),
         (uint2)(0x12345678, 0x87654321), (long2)(12345678, -98765432));
  printf("%v3hd|%v8hhu|%v16hli\n", (short3)(-1, 2, -3), (uchar8)(1, 2, 3, 4, 5, 6, 7, 8), *(global const int16 *)ints);
  printf("%.1v3hlf\n", (float3)(1.25f, 2.5f, -3.75f));
}
)");
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "p");
  cl_float4 f = {{1.0f, 2.0f, 3.0f, 4.0f}};
  std::vector<cl_int> ints(16);
  std::string sixteen;
  for (int e = 0; e < 16; ++e) {
    ints[e] = (e % 2 ? -1 : 1) * e * 1000;
    sixteen += std::string(e ? "," : "").append(std::to_string(ints[e]));
  }
  Mem intBuffer = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, ints.size() * sizeof(cl_int), ints.data());
  setArgs(k, f, intBuffer.get());
  std::string expected = "1.00,2.00,3.00,4.00\n"
                         "0xfa,0xfb|0x1234,0x8765|0x12345678,0x87654321|12345678,-98765432\n"
                         "-1,2,-3|1,2,3,4,5,6,7,8|" +
                         sixteen + "\n" + cFormat("%.1f,%.1f,%.1f\n", 1.25, 2.5, -3.75);
  EXPECT_EQ(runAndCapture(k, 1), expected);
}

TEST_P(PrintfTest, ConstantStringsAndPointers) {
  Program program = build(R"(
constant char greeting[] = "hello";
kernel void p(global ulong *address) {
  printf("[%s][%-7s][%.3s]\n", greeting, greeting, greeting);
  *address = (ulong)(intptr_t)address;
  printf("%p\n", address);
}
)");
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "p");
  Mem address = buffer(CL_MEM_READ_WRITE, sizeof(cl_ulong));
  setArgs(k, address.get());
  auto output = lines(runAndCapture(k, 1));
  ASSERT_EQ(output.size(), 2u);
  EXPECT_EQ(output[0], "[hello][hello  ][hel]");
  cl_ulong expected = read<cl_ulong>(address, 1)[0];
  EXPECT_EQ(std::strtoull(output[1].c_str(), nullptr, 16), expected) << output[1];
}

TEST_P(PrintfTest, EachWorkItemsLinesStayInOrderAndPrintfReturnsZero) {
  Program program = build(R"(
kernel void p(global int *results) {
  int id = (int)get_global_id(0);
  int r = 0;
  for (int line = 0; line < 4; ++line)
    r |= printf("item %d line %d\n", id, line);
  results[id] = r;
}
)");
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "p");
  constexpr size_t items = 96;
  std::vector<cl_int> initial(items, 7);
  Mem results = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, items * sizeof(cl_int), initial.data());
  setArgs(k, results.get());
  auto output = lines(runAndCapture(k, items, 8));
  EXPECT_EQ(output.size(), items * 4);
  std::map<int, int> nextLine;
  for (const std::string &line : output) {
    int id = -1, number = -1;
    ASSERT_EQ(std::sscanf(line.c_str(), "item %d line %d", &id, &number), 2) << line;
    EXPECT_EQ(number, nextLine[id]++) << "work-item " << id << " printed out of order";
  }
  EXPECT_EQ(nextLine.size(), items);
  for (auto [id, count] : nextLine)
    EXPECT_EQ(count, 4) << id;
  for (cl_int r : read<cl_int>(results, items))
    EXPECT_EQ(r, 0);
}

TEST_P(PrintfTest, LinesAroundABarrierFollowTheBarrier) {
  Program program = build(R"(
kernel void p(local int *scratch) {
  int id = (int)get_global_id(0);
  size_t lid = get_local_id(0);
  printf("before %d\n", id);
  scratch[lid] = id;
  barrier(CLK_LOCAL_MEM_FENCE);
  printf("after %d saw %d\n", id, scratch[(lid + 1) % get_local_size(0)]);
}
)");
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "p");
  constexpr size_t items = 32, groupSize = 8;
  ASSERT_CL(clSetKernelArg(k, 0, groupSize * sizeof(cl_int), nullptr));
  auto output = lines(runAndCapture(k, items, groupSize));
  ASSERT_EQ(output.size(), 2 * items);
  // Within a work-group every "before" line comes before every "after" line.
  std::map<int, size_t> beforeSeen, afterSeen;
  for (const std::string &line : output) {
    int id = -1, saw = -1;
    if (std::sscanf(line.c_str(), "before %d", &id) == 1) {
      EXPECT_EQ(afterSeen[id / int(groupSize)], 0u) << line << ": after the barrier in its group";
      ++beforeSeen[id / int(groupSize)];
    } else {
      ASSERT_EQ(std::sscanf(line.c_str(), "after %d saw %d", &id, &saw), 2) << line;
      EXPECT_EQ(beforeSeen[id / int(groupSize)], groupSize) << line << ": before the barrier completed";
      ++afterSeen[id / int(groupSize)];
      int group = id / int(groupSize);
      EXPECT_EQ(saw, group * int(groupSize) + (id + 1) % int(groupSize)) << line;
    }
  }
}

TEST_P(PrintfTest, OverflowingTheBufferTruncatesAndReturnsMinusOne) {
  Program program = build(R"(
kernel void p(global int *results, int perItem) {
  int id = (int)get_global_id(0);
  int failures = 0;
  for (int i = 0; i < perItem; ++i)
    failures += printf("%d %v16ld\n", id, (long16)(i)) != 0;
  results[id] = failures;
}
)");
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "p");
  // Each call stores at least its 128-byte vector: twice the buffer's worth.
  const size_t bufferSize = deviceInfo<size_t>(device(), CL_DEVICE_PRINTF_BUFFER_SIZE);
  constexpr size_t items = 64;
  const cl_int perItem = static_cast<cl_int>(2 * bufferSize / 128 / items + 1);
  std::vector<cl_int> initial(items, -7);
  Mem results = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, items * sizeof(cl_int), initial.data());
  setArgs(k, results.get(), perItem);
  auto output = lines(runAndCapture(k, items, 16));
  size_t failures = 0;
  for (cl_int f : read<cl_int>(results, items)) {
    EXPECT_GE(f, 0);
    failures += size_t(f);
  }
  // The spec lets a driver print more than CL_DEVICE_PRINTF_BUFFER_SIZE
  // (PoCL flushes as it goes); Polymux keeps to its buffer.
  if (platformNameUnderTest() == "Polymux")
    EXPECT_GT(failures, 0u) << "nothing was lost: the buffer did not fill";
  EXPECT_GT(output.size(), 0u);
  EXPECT_EQ(output.size() + failures, items * size_t(perItem)) << "every call either printed or returned -1";
  for (const std::string &line : output) {
    int id = -1;
    long first = -1;
    ASSERT_EQ(std::sscanf(line.c_str(), "%d %ld", &id, &first), 2) << line;
    ASSERT_EQ(std::count(line.begin(), line.end(), ','), 15) << line;
  }
  // The queue still works, and the next launch has the whole buffer again.
  cl_int one = 1;
  setArgs(k, results.get(), one);
  EXPECT_EQ(lines(runAndCapture(k, 2, 1)).size(), 2u);
}

TEST_P(PrintfTest, OutputIsVisibleAfterWaitForEvents) {
  Program program = build(R"(
kernel void p(int value) { printf("value=%d\n", value); }
)");
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "p");
  cl_int value = 4242;
  setArgs(k, value);
  size_t global = 1;
  Event event;
  StdoutCapture capture;
  ASSERT_TRUE(capture.begin());
  cl_int enqueued = clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, nullptr, 0, nullptr, event.out());
  cl_int flushed = clFlush(queue_);
  cl_int waited = enqueued == CL_SUCCESS ? clWaitForEvents(1, event.ptr()) : enqueued;
  std::string text = capture.end();
  EXPECT_CL(enqueued);
  EXPECT_CL(flushed);
  EXPECT_CL(waited);
  EXPECT_EQ(text, "value=4242\n");
}

TEST_P(PrintfTest, OutputOfSeveralCommandsInQueueOrder) {
  Program program = build(R"(
kernel void p(int value) { printf("command %d\n", value); }
)");
  ASSERT_TRUE(program);
  Kernel k = kernel(program, "p");
  size_t global = 1;
  StdoutCapture capture;
  ASSERT_TRUE(capture.begin());
  cl_int status = CL_SUCCESS;
  for (cl_int command = 0; command < 5 && status == CL_SUCCESS; ++command) {
    status = clSetKernelArg(k, 0, sizeof(command), &command);
    if (status == CL_SUCCESS)
      status = clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr);
  }
  cl_int finished = clFinish(queue_);
  std::string text = capture.end();
  EXPECT_CL(status);
  EXPECT_CL(finished);
  EXPECT_EQ(text, "command 0\ncommand 1\ncommand 2\ncommand 3\ncommand 4\n");
}

// "The format string must be resolvable at compile time" (OpenCL C 3.0,
// 6.15.14.2): Polymux rejects the program (PoCL accepts it).
TEST_P(PrintfTest, NonConstantFormatFailsTheBuild) {
  const char *source = "kernel void p(constant char *format) { printf(format, 1); }";
  size_t length = std::strlen(source);
  cl_int err = CL_SUCCESS;
  Program program(clCreateProgramWithSource(context_, 1, &source, &length, &err));
  ASSERT_CL(err);
  cl_device_id dev = device();
  EXPECT_CL_ERR(CL_BUILD_PROGRAM_FAILURE, clBuildProgram(program, 1, &dev, "", nullptr, nullptr));
  EXPECT_NE(programBuildLog(program, dev).find("printf"), std::string::npos) << programBuildLog(program, dev);
}

CLTEST_INSTANTIATE(PrintfTest);

} // namespace
