// clGetDeviceInfo: every OpenCL 3.0 query succeeds with a consistent size,
// and the values are sane and mutually consistent.
#include "cl_test.h"

#include <algorithm>
#include <cstring>
#include <set>

using namespace cltest;

namespace {

enum class Kind {
  Bool,
  Uint,
  Ulong,
  Size,
  Bitfield,
  String,
  SizeArray,
  Handle,
  PropertyArray,
  NameVersionArray,
  Version
};

struct Query {
  cl_device_info param;
  const char *name;
  Kind kind;
};

#define Q(param, kind)                                                                                                 \
  Query { param, #param, Kind::kind }
const Query kQueries[] = {
    Q(CL_DEVICE_TYPE, Bitfield),
    Q(CL_DEVICE_VENDOR_ID, Uint),
    Q(CL_DEVICE_MAX_COMPUTE_UNITS, Uint),
    Q(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, Uint),
    Q(CL_DEVICE_MAX_WORK_ITEM_SIZES, SizeArray),
    Q(CL_DEVICE_MAX_WORK_GROUP_SIZE, Size),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, Uint),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, Uint),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, Uint),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, Uint),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, Uint),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, Uint),
    Q(CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, Uint),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, Uint),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, Uint),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, Uint),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, Uint),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, Uint),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, Uint),
    Q(CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, Uint),
    Q(CL_DEVICE_MAX_CLOCK_FREQUENCY, Uint),
    Q(CL_DEVICE_ADDRESS_BITS, Uint),
    Q(CL_DEVICE_MAX_MEM_ALLOC_SIZE, Ulong),
    Q(CL_DEVICE_IMAGE_SUPPORT, Bool),
    Q(CL_DEVICE_MAX_READ_IMAGE_ARGS, Uint),
    Q(CL_DEVICE_MAX_WRITE_IMAGE_ARGS, Uint),
    Q(CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, Uint),
    Q(CL_DEVICE_IL_VERSION, String),
    Q(CL_DEVICE_ILS_WITH_VERSION, NameVersionArray),
    Q(CL_DEVICE_IMAGE2D_MAX_WIDTH, Size),
    Q(CL_DEVICE_IMAGE2D_MAX_HEIGHT, Size),
    Q(CL_DEVICE_IMAGE3D_MAX_WIDTH, Size),
    Q(CL_DEVICE_IMAGE3D_MAX_HEIGHT, Size),
    Q(CL_DEVICE_IMAGE3D_MAX_DEPTH, Size),
    Q(CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, Size),
    Q(CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, Size),
    Q(CL_DEVICE_MAX_SAMPLERS, Uint),
    Q(CL_DEVICE_IMAGE_PITCH_ALIGNMENT, Uint),
    Q(CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, Uint),
    Q(CL_DEVICE_MAX_PIPE_ARGS, Uint),
    Q(CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS, Uint),
    Q(CL_DEVICE_PIPE_MAX_PACKET_SIZE, Uint),
    Q(CL_DEVICE_MAX_PARAMETER_SIZE, Size),
    Q(CL_DEVICE_MEM_BASE_ADDR_ALIGN, Uint),
    Q(CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE, Uint),
    Q(CL_DEVICE_SINGLE_FP_CONFIG, Bitfield),
    Q(CL_DEVICE_DOUBLE_FP_CONFIG, Bitfield),
    Q(CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, Uint),
    Q(CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, Uint),
    Q(CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, Ulong),
    Q(CL_DEVICE_GLOBAL_MEM_SIZE, Ulong),
    Q(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, Ulong),
    Q(CL_DEVICE_MAX_CONSTANT_ARGS, Uint),
    Q(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, Size),
    Q(CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE, Size),
    Q(CL_DEVICE_LOCAL_MEM_TYPE, Uint),
    Q(CL_DEVICE_LOCAL_MEM_SIZE, Ulong),
    Q(CL_DEVICE_ERROR_CORRECTION_SUPPORT, Bool),
    Q(CL_DEVICE_HOST_UNIFIED_MEMORY, Bool),
    Q(CL_DEVICE_PROFILING_TIMER_RESOLUTION, Size),
    Q(CL_DEVICE_ENDIAN_LITTLE, Bool),
    Q(CL_DEVICE_AVAILABLE, Bool),
    Q(CL_DEVICE_COMPILER_AVAILABLE, Bool),
    Q(CL_DEVICE_LINKER_AVAILABLE, Bool),
    Q(CL_DEVICE_EXECUTION_CAPABILITIES, Bitfield),
    Q(CL_DEVICE_QUEUE_PROPERTIES, Bitfield),
    Q(CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, Bitfield),
    Q(CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, Bitfield),
    Q(CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, Uint),
    Q(CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, Uint),
    Q(CL_DEVICE_MAX_ON_DEVICE_QUEUES, Uint),
    Q(CL_DEVICE_MAX_ON_DEVICE_EVENTS, Uint),
    Q(CL_DEVICE_BUILT_IN_KERNELS, String),
    Q(CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION, NameVersionArray),
    Q(CL_DEVICE_PLATFORM, Handle),
    Q(CL_DEVICE_NAME, String),
    Q(CL_DEVICE_VENDOR, String),
    Q(CL_DRIVER_VERSION, String),
    Q(CL_DEVICE_PROFILE, String),
    Q(CL_DEVICE_VERSION, String),
    Q(CL_DEVICE_NUMERIC_VERSION, Version),
    Q(CL_DEVICE_OPENCL_C_VERSION, String),
    Q(CL_DEVICE_OPENCL_C_ALL_VERSIONS, NameVersionArray),
    Q(CL_DEVICE_OPENCL_C_FEATURES, NameVersionArray),
    Q(CL_DEVICE_EXTENSIONS, String),
    Q(CL_DEVICE_EXTENSIONS_WITH_VERSION, NameVersionArray),
    Q(CL_DEVICE_PRINTF_BUFFER_SIZE, Size),
    Q(CL_DEVICE_PREFERRED_INTEROP_USER_SYNC, Bool),
    Q(CL_DEVICE_PARENT_DEVICE, Handle),
    Q(CL_DEVICE_PARTITION_MAX_SUB_DEVICES, Uint),
    Q(CL_DEVICE_PARTITION_PROPERTIES, PropertyArray),
    Q(CL_DEVICE_PARTITION_AFFINITY_DOMAIN, Bitfield),
    Q(CL_DEVICE_PARTITION_TYPE, PropertyArray),
    Q(CL_DEVICE_REFERENCE_COUNT, Uint),
    Q(CL_DEVICE_SVM_CAPABILITIES, Bitfield),
    Q(CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT, Uint),
    Q(CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT, Uint),
    Q(CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT, Uint),
    Q(CL_DEVICE_MAX_NUM_SUB_GROUPS, Uint),
    Q(CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, Bool),
    Q(CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, Bitfield),
    Q(CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, Bitfield),
    Q(CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, Bool),
    Q(CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, Bool),
    Q(CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, Bool),
    Q(CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, Bitfield),
    Q(CL_DEVICE_PIPE_SUPPORT, Bool),
    Q(CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, Size),
    Q(CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED, String),
};
#undef Q

size_t elementSize(Kind kind) {
  switch (kind) {
  case Kind::Bool:
    return sizeof(cl_bool);
  case Kind::Uint:
    return sizeof(cl_uint);
  case Kind::Version:
    return sizeof(cl_version);
  case Kind::Ulong:
  case Kind::Bitfield:
    return sizeof(cl_ulong);
  case Kind::Size:
  case Kind::SizeArray:
    return sizeof(size_t);
  case Kind::Handle:
    return sizeof(void *);
  case Kind::PropertyArray:
    return sizeof(cl_device_partition_property);
  case Kind::NameVersionArray:
    return sizeof(cl_name_version);
  case Kind::String:
    return 1;
  }
  return 0;
}

bool isArray(Kind kind) {
  return kind == Kind::SizeArray || kind == Kind::PropertyArray || kind == Kind::NameVersionArray ||
         kind == Kind::String;
}

std::set<std::string> names(const std::vector<cl_name_version> &list) {
  std::set<std::string> result;
  for (const cl_name_version &nv : list)
    result.insert(nv.name);
  return result;
}

// "OpenCL <major>.<minor> <anything>" -> {major, minor}, or {-1, -1}.
std::pair<int, int> parseVersion(const std::string &text, const std::string &prefix) {
  int major = -1, minor = -1;
  if (text.rfind(prefix, 0) != 0)
    return {-1, -1};
  if (std::sscanf(text.c_str() + prefix.size(), "%d.%d", &major, &minor) != 2)
    return {-1, -1};
  return {major, minor};
}

class DeviceInfo : public DeviceTest {};

} // namespace

TEST_P(DeviceInfo, EveryQuerySucceedsWithConsistentSize) {
  for (const Query &q : kQueries) {
    SCOPED_TRACE(q.name);
    size_t size = 0;
    ASSERT_CL(clGetDeviceInfo(device(), q.param, 0, nullptr, &size));
    size_t element = elementSize(q.kind);
    if (isArray(q.kind)) {
      EXPECT_EQ(size % element, 0u) << "size " << size;
    } else {
      EXPECT_EQ(size, element);
    }
    if (q.kind == Kind::String)
      EXPECT_GE(size, 1u) << "strings include their NUL";
    std::vector<unsigned char> value(size + 16, 0xcd);
    size_t size2 = 0;
    ASSERT_CL(clGetDeviceInfo(device(), q.param, size, size ? value.data() : nullptr, &size2));
    EXPECT_EQ(size, size2);
    // Nothing is written past the reported size.
    EXPECT_EQ(value[size], 0xcd);
    if (q.kind == Kind::String && size) {
      EXPECT_EQ(value[size - 1], 0) << "string not NUL-terminated";
      EXPECT_EQ(std::strlen(reinterpret_cast<char *>(value.data())), size - 1);
    }
    if (q.kind == Kind::Bool) {
      cl_bool b;
      std::memcpy(&b, value.data(), sizeof(b));
      EXPECT_TRUE(b == CL_TRUE || b == CL_FALSE) << b;
    }
    if (size > 0) // one byte short is an error
      EXPECT_CL_ERR(CL_INVALID_VALUE, clGetDeviceInfo(device(), q.param, size - 1, value.data(), nullptr));
  }
}

TEST_P(DeviceInfo, Errors) {
  char buffer[64];
  EXPECT_CL_ERR(CL_INVALID_VALUE, clGetDeviceInfo(device(), 0x7fff, sizeof(buffer), buffer, nullptr));
  EXPECT_CL_ERR(CL_INVALID_DEVICE, clGetDeviceInfo(nullptr, CL_DEVICE_NAME, sizeof(buffer), buffer, nullptr));
}

TEST_P(DeviceInfo, VersionStrings) {
  std::string version = deviceString(device(), CL_DEVICE_VERSION);
  EXPECT_EQ(version.rfind("OpenCL 3.0 ", 0), 0u) << version;
  EXPECT_EQ(deviceInfo<cl_version>(device(), CL_DEVICE_NUMERIC_VERSION), CL_MAKE_VERSION(3, 0, 0));
  std::string cVersion = deviceString(device(), CL_DEVICE_OPENCL_C_VERSION);
  auto [major, minor] = parseVersion(cVersion, "OpenCL C ");
  EXPECT_GE(major, 1) << cVersion;
  EXPECT_EQ(cVersion.find(' ', 9 + 1) != std::string::npos, true) << "needs a vendor part: " << cVersion;
  std::string profile = deviceString(device(), CL_DEVICE_PROFILE);
  EXPECT_TRUE(profile == "FULL_PROFILE" || profile == "EMBEDDED_PROFILE") << profile;
  // "<version> (compiler <hash of the compiler identity>)": the hash changes
  // whenever program binaries of this device stop loading, so caches keyed on
  // the driver version (pyopencl's) never offer a stale one.
  std::string driver = deviceString(device(), CL_DRIVER_VERSION);
  auto compilerPart = driver.find(" (compiler ");
  ASSERT_NE(compilerPart, std::string::npos) << driver;
  EXPECT_GT(compilerPart, 0u) << driver;
  EXPECT_EQ(driver.back(), ')') << driver;
  EXPECT_GT(driver.size(), compilerPart + 12) << "empty hash: " << driver;
  EXPECT_EQ(deviceString(device(), CL_DRIVER_VERSION), driver);
  EXPECT_FALSE(deviceString(device(), CL_DEVICE_NAME).empty());
  EXPECT_FALSE(deviceString(device(), CL_DEVICE_VENDOR).empty());
}

TEST_P(DeviceInfo, OpenCLCVersionsAndFeatures) {
  auto versions = deviceArray<cl_name_version>(device(), CL_DEVICE_OPENCL_C_ALL_VERSIONS);
  for (const cl_name_version &v : versions)
    EXPECT_STREQ(v.name, "OpenCL C");
  EXPECT_TRUE(deviceSupportsOpenCLC(device(), 1, 2)) << "OpenCL C 1.2 is required";
  EXPECT_TRUE(deviceSupportsOpenCLC(device(), 3, 0)) << "an OpenCL 3.0 device supports OpenCL C 3.0";
  // CL_DEVICE_OPENCL_C_VERSION names one of the supported versions.
  auto [major, minor] = parseVersion(deviceString(device(), CL_DEVICE_OPENCL_C_VERSION), "OpenCL C ");
  EXPECT_TRUE(deviceSupportsOpenCLC(device(), major, minor));

  auto features = names(deviceArray<cl_name_version>(device(), CL_DEVICE_OPENCL_C_FEATURES));
  for (const std::string &f : features)
    EXPECT_EQ(f.rfind("__opencl_c_", 0), 0u) << f;
  bool fp64 = deviceInfo<cl_device_fp_config>(device(), CL_DEVICE_DOUBLE_FP_CONFIG) != 0;
  EXPECT_EQ(features.count("__opencl_c_fp64") == 1, fp64);
  EXPECT_EQ(deviceHasExtension(device(), "cl_khr_fp64"), fp64);
  bool images = deviceInfo<cl_bool>(device(), CL_DEVICE_IMAGE_SUPPORT);
  EXPECT_EQ(features.count("__opencl_c_images") == 1, images);
  bool generic = deviceInfo<cl_bool>(device(), CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT);
  EXPECT_EQ(features.count("__opencl_c_generic_address_space") == 1, generic);
  bool pipes = deviceInfo<cl_bool>(device(), CL_DEVICE_PIPE_SUPPORT);
  EXPECT_EQ(features.count("__opencl_c_pipes") == 1, pipes);
}

TEST_P(DeviceInfo, ExtensionStringMatchesWithVersion) {
  auto fromString = split(deviceString(device(), CL_DEVICE_EXTENSIONS), " ");
  std::set<std::string> stringSet(fromString.begin(), fromString.end());
  EXPECT_EQ(stringSet.size(), fromString.size()) << "duplicate extension names";
  auto list = deviceArray<cl_name_version>(device(), CL_DEVICE_EXTENSIONS_WITH_VERSION);
  for (const cl_name_version &nv : list)
    EXPECT_NE(std::find(nv.name, nv.name + CL_NAME_VERSION_MAX_NAME_SIZE, '\0'),
              nv.name + CL_NAME_VERSION_MAX_NAME_SIZE);
  EXPECT_EQ(stringSet, names(list));
  // Built-in kernels: the string and the array name the same kernels.
  auto builtins = split(deviceString(device(), CL_DEVICE_BUILT_IN_KERNELS), ";");
  std::set<std::string> builtinSet(builtins.begin(), builtins.end());
  EXPECT_EQ(builtinSet, names(deviceArray<cl_name_version>(device(), CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION)));
}

TEST_P(DeviceInfo, MinimumCapabilities) {
  cl_device_type type = deviceInfo<cl_device_type>(device(), CL_DEVICE_TYPE);
  // Exactly one type; never CL_DEVICE_TYPE_DEFAULT or CL_DEVICE_TYPE_ALL.
  EXPECT_TRUE(type == CL_DEVICE_TYPE_CPU || type == CL_DEVICE_TYPE_GPU || type == CL_DEVICE_TYPE_ACCELERATOR ||
              type == CL_DEVICE_TYPE_CUSTOM)
      << type;
  bool custom = type & CL_DEVICE_TYPE_CUSTOM;
  EXPECT_GE(deviceInfo<cl_uint>(device(), CL_DEVICE_MAX_COMPUTE_UNITS), 1u);
  cl_uint dims = deviceInfo<cl_uint>(device(), CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS);
  EXPECT_GE(dims, 3u);
  auto itemSizes = deviceArray<size_t>(device(), CL_DEVICE_MAX_WORK_ITEM_SIZES);
  ASSERT_EQ(itemSizes.size(), dims);
  size_t groupSize = deviceInfo<size_t>(device(), CL_DEVICE_MAX_WORK_GROUP_SIZE);
  EXPECT_GE(groupSize, 1u);
  for (size_t s : itemSizes) {
    EXPECT_GE(s, 1u);
  }
  cl_uint bits = deviceInfo<cl_uint>(device(), CL_DEVICE_ADDRESS_BITS);
  EXPECT_TRUE(bits == 32 || bits == 64) << bits;
  cl_ulong global = deviceInfo<cl_ulong>(device(), CL_DEVICE_GLOBAL_MEM_SIZE);
  cl_ulong maxAlloc = deviceInfo<cl_ulong>(device(), CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  EXPECT_GT(global, 0u);
  EXPECT_LE(maxAlloc, global);
  if (!custom) {
    cl_ulong minAlloc = std::max<cl_ulong>(std::min<cl_ulong>(1024ull << 20, global / 4), 32ull << 20);
    EXPECT_GE(maxAlloc, minAlloc);
    EXPECT_GE(deviceInfo<cl_ulong>(device(), CL_DEVICE_LOCAL_MEM_SIZE), 32u * 1024);
    EXPECT_GE(deviceInfo<cl_ulong>(device(), CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE), 64u * 1024);
    EXPECT_GE(deviceInfo<cl_uint>(device(), CL_DEVICE_MAX_CONSTANT_ARGS), 8u);
    EXPECT_GE(deviceInfo<size_t>(device(), CL_DEVICE_MAX_PARAMETER_SIZE), 1024u);
    EXPECT_GE(deviceInfo<cl_uint>(device(), CL_DEVICE_MEM_BASE_ADDR_ALIGN), 8u * 128) << "bits, >= sizeof(long16)";
  }
  EXPECT_EQ(deviceInfo<cl_device_local_mem_type>(device(), CL_DEVICE_LOCAL_MEM_TYPE) & ~(CL_LOCAL | CL_GLOBAL), 0u);
  cl_device_fp_config single = deviceInfo<cl_device_fp_config>(device(), CL_DEVICE_SINGLE_FP_CONFIG);
  if (deviceString(device(), CL_DEVICE_PROFILE) == "FULL_PROFILE" && !custom)
    EXPECT_EQ(single & (CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN), CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN);
  cl_device_fp_config dbl = deviceInfo<cl_device_fp_config>(device(), CL_DEVICE_DOUBLE_FP_CONFIG);
  if (dbl) {
    // OpenCL 2.0 and later dropped the directed rounding modes from the
    // minimum (a Vulkan device has no round-to-infinity mode).
    const bool openCL1 = deviceString(device(), CL_DEVICE_VERSION).rfind("OpenCL 1.", 0) == 0;
    const cl_device_fp_config required = CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN | CL_FP_DENORM |
                                         (openCL1 ? CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF : 0);
    EXPECT_EQ(dbl & required, required);
    EXPECT_GT(deviceInfo<cl_uint>(device(), CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE), 0u);
  } else {
    EXPECT_EQ(deviceInfo<cl_uint>(device(), CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE), 0u);
    EXPECT_EQ(deviceInfo<cl_uint>(device(), CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE), 0u);
  }
  EXPECT_TRUE(deviceInfo<cl_bool>(device(), CL_DEVICE_AVAILABLE));
  EXPECT_TRUE(deviceInfo<cl_bool>(device(), CL_DEVICE_COMPILER_AVAILABLE));
  EXPECT_TRUE(deviceInfo<cl_device_exec_capabilities>(device(), CL_DEVICE_EXECUTION_CAPABILITIES) & CL_EXEC_KERNEL);
  cl_command_queue_properties queueProps =
      deviceInfo<cl_command_queue_properties>(device(), CL_DEVICE_QUEUE_ON_HOST_PROPERTIES);
  EXPECT_TRUE(queueProps & CL_QUEUE_PROFILING_ENABLE);
  EXPECT_EQ(queueProps, deviceInfo<cl_command_queue_properties>(device(), CL_DEVICE_QUEUE_PROPERTIES));
  EXPECT_EQ(deviceInfo<cl_platform_id>(device(), CL_DEVICE_PLATFORM), platformUnderTest());
  EXPECT_EQ(deviceInfo<cl_device_id>(device(), CL_DEVICE_PARENT_DEVICE), nullptr);
  EXPECT_EQ(deviceInfo<cl_uint>(device(), CL_DEVICE_REFERENCE_COUNT), 1u) << "root devices";
  EXPECT_GE(deviceInfo<size_t>(device(), CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE), 1u);
  // OpenCL 3.0 minimum atomic and fence capabilities.
  constexpr cl_device_atomic_capabilities memoryMin =
      CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP;
  constexpr cl_device_atomic_capabilities fenceMin =
      CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP;
  EXPECT_EQ(deviceInfo<cl_device_atomic_capabilities>(device(), CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES) & memoryMin,
            memoryMin);
  EXPECT_EQ(deviceInfo<cl_device_atomic_capabilities>(device(), CL_DEVICE_ATOMIC_FENCE_CAPABILITIES) & fenceMin,
            fenceMin);
  // No on-device queues: the related limits are zero.
  if (deviceInfo<cl_device_device_enqueue_capabilities>(device(), CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES) == 0) {
    EXPECT_EQ(deviceInfo<cl_command_queue_properties>(device(), CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES), 0u);
    EXPECT_EQ(deviceInfo<cl_uint>(device(), CL_DEVICE_MAX_ON_DEVICE_QUEUES), 0u);
  }
  // Partition properties: a device that cannot be partitioned reports {0}
  // or nothing.
  auto partition = deviceArray<cl_device_partition_property>(device(), CL_DEVICE_PARTITION_PROPERTIES);
  if (deviceInfo<cl_uint>(device(), CL_DEVICE_PARTITION_MAX_SUB_DEVICES) <= 1)
    EXPECT_TRUE(partition.empty() || (partition.size() == 1 && partition[0] == 0));
}

CLTEST_INSTANTIATE(DeviceInfo);
