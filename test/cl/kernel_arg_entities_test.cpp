// cl_polymux_kernel_arg_entities: every device describes its kernels'
// argument types (kinds, names, sizes, alignments, member offsets, typedefs,
// vectors, pointers) as the device lays them out; handles of equal types are
// equal; the description survives program binaries and clLinkProgram; bad
// input gets the extension's error codes.
#include "cl_test.h"
#include "entity_reader.h"

#include <cstring>
#include <optional>
#include <vector>

namespace cltest {
namespace {

constexpr const char *kSource = R"(
typedef int length_t;
typedef struct {
  char tag;
  float4 position;
  length_t count;
  short pair[3];
  union { int i; float f; } value;
} Particle;

// The layout as the device's compiler sees it, for comparison.
kernel void layout(global uint *out) {
  out[0] = sizeof(Particle);
  out[1] = __alignof__(Particle);
  out[2] = __builtin_offsetof(Particle, tag);
  out[3] = __builtin_offsetof(Particle, position);
  out[4] = __builtin_offsetof(Particle, count);
  out[5] = __builtin_offsetof(Particle, pair);
  out[6] = __builtin_offsetof(Particle, value);
}

kernel void weigh(global const Particle *particles, global float *restrict out, const float scale, int2 pair,
                  local int *scratch) {
  size_t i = get_global_id(0);
  global const Particle *p = &particles[i];
  out[i] = scale * (p->tag + p->position.w + p->count + p->pair[2] + p->value.f) + pair.x + pair.y;
}

kernel void other(global const Particle *more, global length_t *lengths) { lengths[0] = more->count; }
)";

class KernelArgEntitiesTest : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    if (HasFatalFailure())
      return;
    program_ = build(kSource, "-cl-kernel-arg-info");
    ASSERT_TRUE(program_);
    reader_.emplace(program_);
    ASSERT_TRUE(reader_->loaded());
  }

  // sizeof, alignment and member offsets of Particle, computed on the device.
  std::vector<cl_uint> deviceLayout() {
    Kernel k = kernel(program_, "layout");
    Mem out = buffer(CL_MEM_READ_WRITE, 7 * sizeof(cl_uint));
    setArgs(k.get(), out.get());
    size_t one = 1;
    EXPECT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &one, nullptr, 0, nullptr, nullptr));
    return read<cl_uint>(out, 7);
  }

  const EntityReader &reader() const { return *reader_; }

  Program program_;
  std::optional<EntityReader> reader_;
};

TEST_P(KernelArgEntitiesTest, EveryDeviceReportsTheExtension) {
  EXPECT_NE(deviceString(device(), CL_DEVICE_EXTENSIONS).find(CL_POLYMUX_KERNEL_ARG_ENTITIES_EXTENSION_NAME),
            std::string::npos);
  EXPECT_EQ(clGetExtensionFunctionAddressForPlatform(platformUnderTest(), "clGetEntityInfoPOLYMUXX"), nullptr);
}

TEST_P(KernelArgEntitiesTest, StructPointerArgumentHasTheDeviceLayout) {
  Kernel weigh = kernel(program_, "weigh");
  const EntityReader &r = reader();
  cl_entity_POLYMUX particles = EntityReader::argEntity(weigh, 0);
  EXPECT_EQ(r.kind(particles), cl_entity_kind_POLYMUX{CL_ENTITY_KIND_POINTER_POLYMUX});
  EXPECT_EQ(r.name(particles), "particles");
  EXPECT_EQ(r.typeName(particles), "Particle*");
  EXPECT_EQ(r.size(particles), deviceInfo<cl_uint>(device(), CL_DEVICE_ADDRESS_BITS) / 8);
  EXPECT_EQ(r.get<cl_kernel_arg_address_qualifier>(particles, CL_ENTITY_ADDRESS_SPACE_POLYMUX),
            cl_kernel_arg_address_qualifier{CL_KERNEL_ARG_ADDRESS_GLOBAL});

  cl_entity_POLYMUX alias = r.entity(particles, CL_ENTITY_POINTEE_POLYMUX);
  EXPECT_EQ(r.kind(alias), cl_entity_kind_POLYMUX{CL_ENTITY_KIND_TYPEDEF_POLYMUX});
  EXPECT_EQ(r.typeName(alias), "Particle");
  EXPECT_EQ(r.name(alias), "");
  EXPECT_EQ(r.get<cl_kernel_arg_type_qualifier>(alias, CL_ENTITY_QUALIFIER_POLYMUX),
            cl_kernel_arg_type_qualifier{CL_KERNEL_ARG_TYPE_CONST});

  std::vector<cl_uint> layout = deviceLayout();
  cl_entity_POLYMUX particle = r.entity(alias, CL_ENTITY_TYPEDEF_TYPE_POLYMUX);
  EXPECT_EQ(r.kind(particle), cl_entity_kind_POLYMUX{CL_ENTITY_KIND_STRUCT_POLYMUX});
  EXPECT_EQ(r.typeName(particle), "") << "an anonymous struct";
  EXPECT_EQ(r.size(particle), layout[0]);
  EXPECT_EQ(r.alignment(particle), layout[1]);
  EXPECT_EQ(r.size(alias), layout[0]);
  // OpenCL C fixes these: float4 is 16-byte aligned.
  EXPECT_EQ(layout[0], 48u);
  EXPECT_EQ(layout[1], 16u);

  ASSERT_EQ(r.members(particle), 5u);
  const char *names[] = {"tag", "position", "count", "pair", "value"};
  for (cl_uint i = 0; i < 5; ++i) {
    EXPECT_EQ(r.name(r.member(particle, i)), names[i]);
    EXPECT_EQ(r.offset(particle, i), layout[2 + i]) << names[i];
  }

  cl_entity_POLYMUX tag = r.member(particle, 0);
  EXPECT_EQ(r.kind(tag), cl_entity_kind_POLYMUX{CL_ENTITY_KIND_SCALAR_POLYMUX});
  EXPECT_EQ(r.typeName(tag), "char");
  EXPECT_EQ(r.size(tag), 1u);

  cl_entity_POLYMUX position = r.member(particle, 1);
  EXPECT_EQ(r.kind(position), cl_entity_kind_POLYMUX{CL_ENTITY_KIND_VECTOR_POLYMUX});
  EXPECT_EQ(r.typeName(position), "float4");
  EXPECT_EQ(r.size(position), 16u);
  EXPECT_EQ(r.alignment(position), 16u);
  EXPECT_EQ(r.get<size_t>(position, CL_ENTITY_ELEMENT_COUNT_POLYMUX), 4u);
  cl_entity_POLYMUX lane = r.entity(position, CL_ENTITY_ELEMENT_POLYMUX);
  EXPECT_EQ(r.typeName(lane), "float");
  EXPECT_EQ(r.size(lane), 4u);

  cl_entity_POLYMUX count = r.member(particle, 2);
  EXPECT_EQ(r.kind(count), cl_entity_kind_POLYMUX{CL_ENTITY_KIND_TYPEDEF_POLYMUX});
  EXPECT_EQ(r.typeName(count), "length_t");
  cl_entity_POLYMUX countType = r.entity(count, CL_ENTITY_TYPEDEF_TYPE_POLYMUX);
  EXPECT_EQ(r.kind(countType), cl_entity_kind_POLYMUX{CL_ENTITY_KIND_SCALAR_POLYMUX});
  EXPECT_EQ(r.typeName(countType), "int");

  cl_entity_POLYMUX pair = r.member(particle, 3);
  EXPECT_EQ(r.kind(pair), cl_entity_kind_POLYMUX{CL_ENTITY_KIND_ARRAY_POLYMUX});
  EXPECT_EQ(r.typeName(pair), "short[3]");
  EXPECT_EQ(r.size(pair), 6u);
  EXPECT_EQ(r.get<size_t>(pair, CL_ENTITY_ELEMENT_COUNT_POLYMUX), 3u);
  EXPECT_EQ(r.typeName(r.entity(pair, CL_ENTITY_ELEMENT_POLYMUX)), "short");

  cl_entity_POLYMUX value = r.member(particle, 4);
  EXPECT_EQ(r.kind(value), cl_entity_kind_POLYMUX{CL_ENTITY_KIND_UNION_POLYMUX});
  EXPECT_EQ(r.size(value), 4u);
  ASSERT_EQ(r.members(value), 2u);
  EXPECT_EQ(r.name(r.member(value, 0)), "i");
  EXPECT_EQ(r.name(r.member(value, 1)), "f");
  EXPECT_EQ(r.offset(value, 0), 0u);
  EXPECT_EQ(r.offset(value, 1), 0u);
}

TEST_P(KernelArgEntitiesTest, ValueVectorAndLocalArguments) {
  Kernel weigh = kernel(program_, "weigh");
  const EntityReader &r = reader();

  cl_entity_POLYMUX out = EntityReader::argEntity(weigh, 1);
  EXPECT_EQ(r.name(out), "out");
  EXPECT_EQ(r.get<cl_kernel_arg_type_qualifier>(out, CL_ENTITY_QUALIFIER_POLYMUX),
            cl_kernel_arg_type_qualifier{CL_KERNEL_ARG_TYPE_RESTRICT});

  cl_entity_POLYMUX scale = EntityReader::argEntity(weigh, 2);
  EXPECT_EQ(r.kind(scale), cl_entity_kind_POLYMUX{CL_ENTITY_KIND_SCALAR_POLYMUX});
  EXPECT_EQ(r.name(scale), "scale");
  EXPECT_EQ(r.typeName(scale), "float");
  EXPECT_EQ(r.size(scale), 4u);
  EXPECT_EQ(r.get<cl_kernel_arg_type_qualifier>(scale, CL_ENTITY_QUALIFIER_POLYMUX),
            cl_kernel_arg_type_qualifier{CL_KERNEL_ARG_TYPE_CONST});

  cl_entity_POLYMUX pair = EntityReader::argEntity(weigh, 3);
  EXPECT_EQ(r.kind(pair), cl_entity_kind_POLYMUX{CL_ENTITY_KIND_VECTOR_POLYMUX});
  EXPECT_EQ(r.typeName(pair), "int2");
  EXPECT_EQ(r.size(pair), 8u);
  EXPECT_EQ(r.get<size_t>(pair, CL_ENTITY_ELEMENT_COUNT_POLYMUX), 2u);

  cl_entity_POLYMUX scratch = EntityReader::argEntity(weigh, 4);
  EXPECT_EQ(r.kind(scratch), cl_entity_kind_POLYMUX{CL_ENTITY_KIND_POINTER_POLYMUX});
  EXPECT_EQ(r.get<cl_kernel_arg_address_qualifier>(scratch, CL_ENTITY_ADDRESS_SPACE_POLYMUX),
            cl_kernel_arg_address_qualifier{CL_KERNEL_ARG_ADDRESS_LOCAL});
  EXPECT_EQ(r.typeName(r.entity(scratch, CL_ENTITY_POINTEE_POLYMUX)), "int");
}

TEST_P(KernelArgEntitiesTest, EqualTypesShareOneHandle) {
  Kernel weigh = kernel(program_, "weigh");
  Kernel weighAgain = kernel(program_, "weigh");
  Kernel other = kernel(program_, "other");
  const EntityReader &r = reader();

  cl_entity_POLYMUX particles = EntityReader::argEntity(weigh, 0);
  EXPECT_EQ(EntityReader::argEntity(weighAgain, 0), particles);
  cl_entity_POLYMUX more = EntityReader::argEntity(other, 0);
  // Same type, other parameter name: other entities of one type.
  EXPECT_NE(more, particles);
  EXPECT_EQ(r.entity(more, CL_ENTITY_TYPE_POLYMUX), r.entity(particles, CL_ENTITY_TYPE_POLYMUX));
  EXPECT_EQ(r.entity(more, CL_ENTITY_POINTEE_POLYMUX), r.entity(particles, CL_ENTITY_POINTEE_POLYMUX));
  cl_entity_POLYMUX unnamed = r.entity(more, CL_ENTITY_TYPE_POLYMUX);
  EXPECT_EQ(r.name(unnamed), "");
  EXPECT_EQ(r.entity(unnamed, CL_ENTITY_TYPE_POLYMUX), unnamed);

  // length_t's int, int2's lanes and the pointee of `lengths`' typedef.
  cl_entity_POLYMUX particle = r.entity(r.entity(particles, CL_ENTITY_POINTEE_POLYMUX), CL_ENTITY_TYPEDEF_TYPE_POLYMUX);
  cl_entity_POLYMUX countInt = r.entity(r.member(particle, 2), CL_ENTITY_TYPEDEF_TYPE_POLYMUX);
  cl_entity_POLYMUX lane = r.entity(EntityReader::argEntity(weigh, 3), CL_ENTITY_ELEMENT_POLYMUX);
  EXPECT_EQ(countInt, lane);
  cl_entity_POLYMUX lengths = r.entity(EntityReader::argEntity(other, 1), CL_ENTITY_POINTEE_POLYMUX);
  EXPECT_EQ(r.entity(lengths, CL_ENTITY_TYPEDEF_TYPE_POLYMUX), countInt);
  // A member is named after the member: a different entity than the type.
  EXPECT_EQ(r.entity(r.member(particle, 2), CL_ENTITY_TYPE_POLYMUX), lengths);
}

TEST_P(KernelArgEntitiesTest, TheHostFillsStructsFromTheDescription) {
  Kernel weigh = kernel(program_, "weigh");
  const EntityReader &r = reader();
  cl_entity_POLYMUX alias = r.entity(EntityReader::argEntity(weigh, 0), CL_ENTITY_POINTEE_POLYMUX);
  cl_entity_POLYMUX particle = r.entity(alias, CL_ENTITY_TYPEDEF_TYPE_POLYMUX);
  const size_t stride = r.size(particle);
  size_t tagAt = 0, positionAt = 0, countAt = 0, pairAt = 0, valueAt = 0;
  ASSERT_TRUE(r.memberNamed(particle, "tag", &tagAt));
  ASSERT_TRUE(r.memberNamed(particle, "position", &positionAt));
  ASSERT_TRUE(r.memberNamed(particle, "count", &countAt));
  cl_entity_POLYMUX pair = r.memberNamed(particle, "pair", &pairAt);
  ASSERT_TRUE(pair);
  ASSERT_TRUE(r.memberNamed(particle, "value", &valueAt));
  const size_t shortSize = r.size(r.entity(pair, CL_ENTITY_ELEMENT_POLYMUX));

  constexpr size_t kCount = 16;
  std::vector<unsigned char> bytes(kCount * stride, 0xee);
  std::vector<float> expected(kCount);
  const float scale = 0.5f;
  const cl_int2 offsets = {{3, 4}};
  for (size_t i = 0; i < kCount; ++i) {
    unsigned char *base = bytes.data() + i * stride;
    cl_char tag = static_cast<cl_char>(i);
    cl_float4 position = {{0.0f, 0.0f, 0.0f, 2.0f * i}};
    cl_int count = static_cast<cl_int>(100 + i);
    cl_short third = static_cast<cl_short>(-static_cast<int>(i));
    cl_float f = 0.25f * i;
    std::memcpy(base + tagAt, &tag, sizeof(tag));
    std::memcpy(base + positionAt, &position, sizeof(position));
    std::memcpy(base + countAt, &count, sizeof(count));
    std::memcpy(base + pairAt + 2 * shortSize, &third, sizeof(third));
    std::memcpy(base + valueAt, &f, sizeof(f));
    expected[i] = scale * (tag + position.s[3] + count + third + f) + offsets.s[0] + offsets.s[1];
  }
  Mem particles = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes.size(), bytes.data());
  Mem out = buffer(CL_MEM_WRITE_ONLY, kCount * sizeof(cl_float));
  ASSERT_CL(clSetKernelArg(weigh, 0, sizeof(cl_mem), particles.ptr()));
  ASSERT_CL(clSetKernelArg(weigh, 1, sizeof(cl_mem), out.ptr()));
  ASSERT_CL(clSetKernelArg(weigh, 2, sizeof(scale), &scale));
  ASSERT_CL(clSetKernelArg(weigh, 3, sizeof(offsets), &offsets));
  ASSERT_CL(clSetKernelArg(weigh, 4, sizeof(cl_int), nullptr));
  size_t global = kCount;
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, weigh, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
  EXPECT_EQ(read<cl_float>(out, kCount), expected);
}

TEST_P(KernelArgEntitiesTest, ParameterNamesNeedKernelArgInfo) {
  Program plain = build(kSource);
  ASSERT_TRUE(plain);
  EntityReader r(plain);
  Kernel weigh = kernel(plain, "weigh");
  char name[32];
  EXPECT_CL_ERR(CL_KERNEL_ARG_INFO_NOT_AVAILABLE,
                clGetKernelArgInfo(weigh, 0, CL_KERNEL_ARG_NAME, sizeof(name), name, nullptr));
  cl_entity_POLYMUX particles = EntityReader::argEntity(weigh, 0);
  EXPECT_EQ(r.name(particles), "");
  EXPECT_EQ(r.entity(particles, CL_ENTITY_TYPE_POLYMUX), particles);
  // Member names are part of the type.
  cl_entity_POLYMUX particle = r.entity(r.entity(particles, CL_ENTITY_POINTEE_POLYMUX), CL_ENTITY_TYPEDEF_TYPE_POLYMUX);
  EXPECT_EQ(r.name(r.member(particle, 1)), "position");
  // The same layout as with names.
  Kernel named = kernel(program_, "weigh");
  EXPECT_EQ(r.describe(particles),
            reader().describe(reader().entity(EntityReader::argEntity(named, 0), CL_ENTITY_TYPE_POLYMUX)));
}

TEST_P(KernelArgEntitiesTest, RecursiveTypes) {
  Program program = build(R"(
    typedef struct Node { int value; global struct Node *next; } Node;
    kernel void walk(global Node *list, global int *out) { out[0] = list->next ? list->next->value : list->value; }
  )");
  ASSERT_TRUE(program);
  EntityReader r(program);
  Kernel walk = kernel(program, "walk");
  cl_entity_POLYMUX alias = r.entity(EntityReader::argEntity(walk, 0), CL_ENTITY_POINTEE_POLYMUX);
  cl_entity_POLYMUX node = r.entity(alias, CL_ENTITY_TYPEDEF_TYPE_POLYMUX);
  EXPECT_EQ(r.typeName(node), "struct Node");
  ASSERT_EQ(r.members(node), 2u);
  cl_entity_POLYMUX next = r.member(node, 1);
  EXPECT_EQ(r.name(next), "next");
  EXPECT_EQ(r.kind(next), cl_entity_kind_POLYMUX{CL_ENTITY_KIND_POINTER_POLYMUX});
  EXPECT_EQ(r.get<cl_kernel_arg_address_qualifier>(next, CL_ENTITY_ADDRESS_SPACE_POLYMUX),
            cl_kernel_arg_address_qualifier{CL_KERNEL_ARG_ADDRESS_GLOBAL});
  EXPECT_EQ(r.entity(next, CL_ENTITY_POINTEE_POLYMUX), node);
  EXPECT_EQ(r.offset(node, 1), r.size(next)) << "the pointer follows the int, aligned to its size";
  EXPECT_NE(r.describe(alias).find("(recursive)"), std::string::npos);
}

TEST_P(KernelArgEntitiesTest, GenericPointerMembers) {
  if (!deviceSupportsOpenCLC(device(), 3, 0) || !deviceInfo<cl_bool>(device(), CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT))
    GTEST_SKIP() << "the device has no generic address space";
  Program program = build(R"(
    typedef struct { int *anywhere; local float *shared; } Pointers;
    kernel void use(global Pointers *p) { p->anywhere = 0; }
  )",
                          "-cl-std=CL3.0");
  ASSERT_TRUE(program);
  EntityReader r(program);
  Kernel use = kernel(program, "use");
  cl_entity_POLYMUX pointers =
      r.entity(r.entity(EntityReader::argEntity(use, 0), CL_ENTITY_POINTEE_POLYMUX), CL_ENTITY_TYPEDEF_TYPE_POLYMUX);
  ASSERT_EQ(r.members(pointers), 2u);
  EXPECT_EQ(r.get<cl_kernel_arg_address_qualifier>(r.member(pointers, 0), CL_ENTITY_ADDRESS_SPACE_POLYMUX),
            cl_kernel_arg_address_qualifier{CL_KERNEL_ARG_ADDRESS_GENERIC_POLYMUX});
  EXPECT_EQ(r.get<cl_kernel_arg_address_qualifier>(r.member(pointers, 1), CL_ENTITY_ADDRESS_SPACE_POLYMUX),
            cl_kernel_arg_address_qualifier{CL_KERNEL_ARG_ADDRESS_LOCAL});
  EXPECT_EQ(r.typeName(r.member(pointers, 1)), "float*");
}

TEST_P(KernelArgEntitiesTest, SurviveProgramBinaries) {
  cl_device_id dev = device();
  size_t size = 0;
  ASSERT_CL(clGetProgramInfo(program_, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size, nullptr));
  std::vector<unsigned char> binary(size);
  unsigned char *binaries[] = {binary.data()};
  ASSERT_CL(clGetProgramInfo(program_, CL_PROGRAM_BINARIES, sizeof(binaries), binaries, nullptr));
  const unsigned char *input = binary.data();
  cl_int status = CL_SUCCESS, err = CL_SUCCESS;
  Program loaded(clCreateProgramWithBinary(context_, 1, &dev, &size, &input, &status, &err));
  ASSERT_CL(err);
  ASSERT_CL(clBuildProgram(loaded, 1, &dev, nullptr, nullptr, nullptr));

  EntityReader fromBinary(loaded);
  Kernel original = kernel(program_, "weigh");
  Kernel reloaded = kernel(loaded, "weigh");
  for (cl_uint i = 0; i < 5; ++i) {
    std::string expected = reader().describe(EntityReader::argEntity(original, i));
    EXPECT_EQ(fromBinary.describe(EntityReader::argEntity(reloaded, i)), expected);
  }
  EXPECT_NE(fromBinary.describe(EntityReader::argEntity(reloaded, 0)).find("'position' 'float4'"), std::string::npos);
}

TEST_P(KernelArgEntitiesTest, SurviveCompileAndLink) {
  cl_device_id dev = device();
  const char *text = kSource;
  cl_int err = CL_SUCCESS;
  Program object(clCreateProgramWithSource(context_, 1, &text, nullptr, &err));
  ASSERT_CL(err);
  ASSERT_CL(clCompileProgram(object, 1, &dev, "-cl-kernel-arg-info", 0, nullptr, nullptr, nullptr, nullptr));
  cl_program inputs[] = {object};
  Program linked(clLinkProgram(context_, 1, &dev, nullptr, 1, inputs, nullptr, nullptr, &err));
  ASSERT_CL(err);
  EntityReader fromLink(linked);
  Kernel original = kernel(program_, "weigh");
  Kernel relinked = kernel(linked, "weigh");
  for (cl_uint i = 0; i < 5; ++i) {
    std::string expected =
        reader().describe(reader().entity(EntityReader::argEntity(original, i), CL_ENTITY_TYPE_POLYMUX));
    EXPECT_EQ(fromLink.describe(fromLink.entity(EntityReader::argEntity(relinked, i), CL_ENTITY_TYPE_POLYMUX)),
              expected);
  }
}

TEST_P(KernelArgEntitiesTest, KernelArgInfoErrors) {
  Kernel weigh = kernel(program_, "weigh");
  cl_entity_POLYMUX entity = nullptr;
  size_t size = 0;
  EXPECT_CL_ERR(CL_INVALID_KERNEL,
                clGetKernelArgInfo(nullptr, 0, CL_KERNEL_ARG_ENTITY_POLYMUX, sizeof(entity), &entity, nullptr));
  EXPECT_CL_ERR(CL_INVALID_ARG_INDEX,
                clGetKernelArgInfo(weigh, 5, CL_KERNEL_ARG_ENTITY_POLYMUX, sizeof(entity), &entity, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, clGetKernelArgInfo(weigh, 0, CL_KERNEL_ARG_ENTITY_POLYMUX, 1, &entity, nullptr));
  EXPECT_CL(clGetKernelArgInfo(weigh, 0, CL_KERNEL_ARG_ENTITY_POLYMUX, 0, nullptr, &size));
  EXPECT_EQ(size, sizeof(cl_entity_POLYMUX));
}

TEST_P(KernelArgEntitiesTest, ProgramAndEntityErrors) {
  const EntityReader &r = reader();
  Kernel weigh = kernel(program_, "weigh");
  cl_entity_POLYMUX particles = EntityReader::argEntity(weigh, 0);
  cl_uint kind = 0;
  cl_int err = CL_SUCCESS;

  EXPECT_CL_ERR(CL_INVALID_PROGRAM, r.info(nullptr, particles, CL_ENTITY_KIND_POLYMUX, sizeof(kind), &kind, nullptr));
  EXPECT_CL_ERR(CL_INVALID_PROGRAM, r.info(reinterpret_cast<cl_program>(weigh.get()), particles, CL_ENTITY_KIND_POLYMUX,
                                           sizeof(kind), &kind, nullptr));
  EXPECT_EQ(r.numMembers(nullptr, particles, &err), 0u);
  EXPECT_CL_ERR(CL_INVALID_PROGRAM, err);
  size_t offset = 0;
  EXPECT_CL_ERR(CL_INVALID_PROGRAM,
                r.memberInfo(nullptr, particles, 0, CL_ENTITY_MEMBER_OFFSET_POLYMUX, sizeof(offset), &offset, nullptr));

  // Not built, or only compiled: no executable.
  const char *text = kSource;
  Program unbuilt(clCreateProgramWithSource(context_, 1, &text, nullptr, &err));
  ASSERT_CL(err);
  EXPECT_CL_ERR(CL_INVALID_PROGRAM_EXECUTABLE,
                r.info(unbuilt, particles, CL_ENTITY_KIND_POLYMUX, sizeof(kind), &kind, nullptr));
  EXPECT_EQ(r.numMembers(unbuilt, particles, &err), 0u);
  EXPECT_CL_ERR(CL_INVALID_PROGRAM_EXECUTABLE, err);
  cl_device_id dev = device();
  ASSERT_CL(clCompileProgram(unbuilt, 1, &dev, nullptr, 0, nullptr, nullptr, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_PROGRAM_EXECUTABLE,
                r.info(unbuilt, particles, CL_ENTITY_KIND_POLYMUX, sizeof(kind), &kind, nullptr));

  // Entities that are not the program's.
  EXPECT_CL_ERR(CL_INVALID_VALUE, r.info(program_, nullptr, CL_ENTITY_KIND_POLYMUX, sizeof(kind), &kind, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, r.info(program_, reinterpret_cast<cl_entity_POLYMUX>(uintptr_t{0x1234}),
                                         CL_ENTITY_KIND_POLYMUX, sizeof(kind), &kind, nullptr));
  Program another = build(kSource, "-cl-kernel-arg-info");
  ASSERT_TRUE(another);
  EXPECT_CL_ERR(CL_INVALID_VALUE, r.info(another, particles, CL_ENTITY_KIND_POLYMUX, sizeof(kind), &kind, nullptr));
  EXPECT_EQ(r.numMembers(another, particles, &err), 0u);
  EXPECT_CL_ERR(CL_INVALID_VALUE, err);

  // A rebuild invalidates the handles of the previous build.
  cl_entity_POLYMUX stale;
  {
    Kernel k = kernel(another, "weigh");
    stale = EntityReader::argEntity(k, 0);
    EXPECT_CL(r.info(another, stale, CL_ENTITY_KIND_POLYMUX, sizeof(kind), &kind, nullptr));
  }
  ASSERT_CL(clBuildProgram(another, 1, &dev, "-cl-kernel-arg-info", nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, r.info(another, stale, CL_ENTITY_KIND_POLYMUX, sizeof(kind), &kind, nullptr));
}

TEST_P(KernelArgEntitiesTest, ParameterErrors) {
  const EntityReader &r = reader();
  Kernel weigh = kernel(program_, "weigh");
  cl_entity_POLYMUX particles = EntityReader::argEntity(weigh, 0);
  cl_entity_POLYMUX scale = EntityReader::argEntity(weigh, 2);
  cl_entity_POLYMUX pair = EntityReader::argEntity(weigh, 3);
  cl_entity_POLYMUX particle = r.entity(r.entity(particles, CL_ENTITY_POINTEE_POLYMUX), CL_ENTITY_TYPEDEF_TYPE_POLYMUX);
  cl_entity_POLYMUX entity = nullptr;
  size_t size = 0;
  char text[2];

  EXPECT_CL_ERR(CL_INVALID_VALUE, r.info(program_, scale, 0x4F5F, sizeof(size), &size, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, r.info(program_, scale, CL_KERNEL_ARG_NAME, sizeof(text), text, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, r.info(program_, scale, CL_ENTITY_SIZE_POLYMUX, 1, &size, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE, r.info(program_, scale, CL_ENTITY_TYPE_NAME_POLYMUX, sizeof(text), text, nullptr));
  EXPECT_CL(r.info(program_, scale, CL_ENTITY_SIZE_POLYMUX, 0, nullptr, &size));
  EXPECT_EQ(size, sizeof(size_t));
  EXPECT_CL(r.info(program_, scale, CL_ENTITY_TYPE_NAME_POLYMUX, 0, nullptr, &size));
  EXPECT_EQ(size, sizeof("float"));

  // Queries of one kind asked of another.
  EXPECT_CL_ERR(CL_INVALID_VALUE, r.info(program_, scale, CL_ENTITY_POINTEE_POLYMUX, sizeof(entity), &entity, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE,
                r.info(program_, particle, CL_ENTITY_TYPEDEF_TYPE_POLYMUX, sizeof(entity), &entity, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE,
                r.info(program_, particles, CL_ENTITY_ELEMENT_POLYMUX, sizeof(entity), &entity, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE,
                r.info(program_, pair, CL_ENTITY_ADDRESS_SPACE_POLYMUX, sizeof(size), &size, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE,
                r.info(program_, particle, CL_ENTITY_ELEMENT_COUNT_POLYMUX, sizeof(size), &size, nullptr));
}

TEST_P(KernelArgEntitiesTest, MemberErrors) {
  const EntityReader &r = reader();
  Kernel weigh = kernel(program_, "weigh");
  cl_entity_POLYMUX scale = EntityReader::argEntity(weigh, 2);
  cl_entity_POLYMUX particle =
      r.entity(r.entity(EntityReader::argEntity(weigh, 0), CL_ENTITY_POINTEE_POLYMUX), CL_ENTITY_TYPEDEF_TYPE_POLYMUX);
  size_t offset = 0;
  cl_entity_POLYMUX member = nullptr;
  cl_int err = CL_INVALID_VALUE;

  EXPECT_EQ(r.numMembers(program_, scale, &err), 0u);
  EXPECT_CL(err);
  EXPECT_EQ(r.numMembers(program_, particle, nullptr), 5u);
  EXPECT_EQ(r.numMembers(program_, nullptr, nullptr), 0u);

  EXPECT_CL_ERR(CL_INVALID_VALUE,
                r.memberInfo(program_, particle, 5, CL_ENTITY_MEMBER_OFFSET_POLYMUX, sizeof(offset), &offset, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE,
                r.memberInfo(program_, scale, 0, CL_ENTITY_MEMBER_ENTITY_POLYMUX, sizeof(member), &member, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE,
                r.memberInfo(program_, particle, 0, CL_ENTITY_KIND_POLYMUX, sizeof(offset), &offset, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE,
                r.memberInfo(program_, particle, 0, CL_ENTITY_MEMBER_OFFSET_POLYMUX, 1, &offset, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE,
                r.memberInfo(program_, nullptr, 0, CL_ENTITY_MEMBER_OFFSET_POLYMUX, sizeof(offset), &offset, nullptr));
  size_t size = 0;
  EXPECT_CL(r.memberInfo(program_, particle, 4, CL_ENTITY_MEMBER_ENTITY_POLYMUX, 0, nullptr, &size));
  EXPECT_EQ(size, sizeof(cl_entity_POLYMUX));
}

CLTEST_INSTANTIATE(KernelArgEntitiesTest);

} // namespace
} // namespace cltest
