// Kernel argument type entities (type_entity.h): what the front end records
// for each kernel's parameters, and that compile + link, libraries and
// serialization keep it.
#include "compiler/arg_entity_metadata.h"
#include "compiler/module_format.h"

#include "test_support.h"

namespace compiler::test {
namespace {

constexpr const char *kSource = R"(
typedef int length_t;
typedef struct { char c; float4 v; length_t n; short s[3]; union { int i; float f; } u; } Item;
kernel void use(global const Item *items, float4 scale, local length_t *scratch) {
  scratch[0] = items[0].n + (int)scale.x;
}
)";

const TypeEntity &at(const KernelInfo &kernel, EntityIndex index) {
  EXPECT_LT(index, kernel.entities.size());
  return kernel.entities.at(index);
}

const KernelInfo &onlyKernel(Module &module) {
  EXPECT_EQ(module.kernels().size(), 1u);
  return module.kernels()[0];
}

TEST(ArgEntities, DescribeParametersWithTheDeviceLayout) {
  auto compiler = hostCompiler();
  std::string log;
  auto module = compiler->build(kSource, "", log);
  ASSERT_TRUE(static_cast<bool>(module)) << errorText(module.takeError()) << log;
  const KernelInfo &kernel = onlyKernel(**module);
  ASSERT_EQ(kernel.args.size(), 3u);

  const TypeEntity &items = at(kernel, kernel.args[0].entity);
  EXPECT_EQ(items.kind, EntityKind::Pointer);
  EXPECT_EQ(items.name, "items");
  EXPECT_EQ(items.typeName, "Item*");
  EXPECT_EQ(items.addressSpace, EntityAddressSpace::Global);
  EXPECT_EQ(items.size, 8u);
  const TypeEntity &alias = at(kernel, items.element);
  EXPECT_EQ(alias.kind, EntityKind::Typedef);
  EXPECT_EQ(alias.typeName, "Item");
  EXPECT_EQ(alias.qualifiers, uint32_t{QualConst});
  const TypeEntity &item = at(kernel, alias.element);
  EXPECT_EQ(item.kind, EntityKind::Struct);
  EXPECT_EQ(item.size, 48u);
  EXPECT_EQ(item.alignment, 16u);
  ASSERT_EQ(item.members.size(), 5u);
  const std::pair<const char *, uint64_t> members[] = {{"c", 0}, {"v", 16}, {"n", 32}, {"s", 36}, {"u", 44}};
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(at(kernel, item.members[i].entity).name, members[i].first);
    EXPECT_EQ(item.members[i].offset, members[i].second) << members[i].first;
  }
  const TypeEntity &vector = at(kernel, item.members[1].entity);
  EXPECT_EQ(vector.kind, EntityKind::Vector);
  EXPECT_EQ(vector.typeName, "float4");
  EXPECT_EQ(vector.count, 4u);
  EXPECT_EQ(at(kernel, vector.element).typeName, "float");
  const TypeEntity &length = at(kernel, item.members[2].entity);
  EXPECT_EQ(length.kind, EntityKind::Typedef);
  EXPECT_EQ(at(kernel, length.element).typeName, "int");
  const TypeEntity &array = at(kernel, item.members[3].entity);
  EXPECT_EQ(array.kind, EntityKind::Array);
  EXPECT_EQ(array.count, 3u);
  EXPECT_EQ(array.size, 6u);
  const TypeEntity &onion = at(kernel, item.members[4].entity);
  EXPECT_EQ(onion.kind, EntityKind::Union);
  EXPECT_EQ(onion.typeName, "");
  EXPECT_EQ(onion.members.size(), 2u);

  const TypeEntity &scale = at(kernel, kernel.args[1].entity);
  EXPECT_EQ(scale.kind, EntityKind::Vector);
  EXPECT_EQ(scale.name, "scale");
  const TypeEntity &scratch = at(kernel, kernel.args[2].entity);
  EXPECT_EQ(scratch.addressSpace, EntityAddressSpace::Local);
  // One entity per type: the pointee is the member's typedef, unnamed.
  EXPECT_EQ(at(kernel, scratch.element).typeName, "length_t");
  EXPECT_EQ(at(kernel, scratch.element).element, length.element);
}

TEST(ArgEntities, SurviveLinkingLibrariesAndSerialization) {
  auto compiler = hostCompiler();
  std::string log;
  auto built = compiler->build(kSource, "", log);
  ASSERT_TRUE(static_cast<bool>(built)) << log;
  const std::vector<TypeEntity> expected = onlyKernel(**built).entities;
  ASSERT_FALSE(expected.empty());

  auto object = compiler->compile(kSource, "", {}, log);
  ASSERT_TRUE(static_cast<bool>(object)) << log;
  Module *inputs[] = {object->get()};
  auto library = compiler->link(inputs, "-create-library", log);
  ASSERT_TRUE(static_cast<bool>(library)) << log;
  // A library lists no kernels; the executable linked from it does.
  Module *libraries[] = {library->get()};
  auto linked = compiler->link(libraries, "", log);
  ASSERT_TRUE(static_cast<bool>(linked)) << log;
  EXPECT_EQ(onlyKernel(**linked).entities, expected);
  EXPECT_EQ(onlyKernel(**linked).args[0].entity, onlyKernel(**built).args[0].entity);

  auto bytes = (*linked)->serialize();
  ASSERT_TRUE(static_cast<bool>(bytes));
  auto restored = compiler->deserialize(*bytes);
  ASSERT_TRUE(static_cast<bool>(restored)) << errorText(restored.takeError());
  EXPECT_EQ(onlyKernel(**restored).entities, expected);
  for (size_t i = 0; i < 3; ++i)
    EXPECT_EQ(onlyKernel(**restored).args[i].entity, onlyKernel(**built).args[i].entity);
}

TEST(ArgEntities, ReadingRejectsBrokenTables) {
  std::vector<TypeEntity> table(2);
  table[0].kind = EntityKind::Pointer;
  table[0].element = 1;
  table[1].kind = EntityKind::Struct;
  table[1].members.push_back({0, 0});
  ByteWriter writer;
  writeEntities(writer, table);
  std::vector<TypeEntity> read;
  ByteReader reader(writer.data());
  ASSERT_TRUE(readEntities(reader, read));
  EXPECT_EQ(read, table);

  auto rejects = [](std::vector<TypeEntity> broken) {
    ByteWriter out;
    writeEntities(out, broken);
    ByteReader in(out.data());
    std::vector<TypeEntity> result;
    return !readEntities(in, result);
  };
  auto danglingElement = table;
  danglingElement[0].element = 2;
  EXPECT_TRUE(rejects(danglingElement));
  auto danglingMember = table;
  danglingMember[1].members[0].entity = kNoEntity;
  EXPECT_TRUE(rejects(danglingMember));
  auto badKind = table;
  badKind[1].kind = static_cast<EntityKind>(99);
  EXPECT_TRUE(rejects(badKind));

  ByteReader truncated(std::span(writer.data()).first(writer.data().size() - 3));
  EXPECT_FALSE(readEntities(truncated, read));
}

} // namespace
} // namespace compiler::test
