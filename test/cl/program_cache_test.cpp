// The on-disk kernel cache (POLYMUX_CACHE): clBuildProgram from source
// stores executables and reuses them, rebuilds damaged entries, keys on the
// options, and writes nothing when disabled. Each test points the cache at a
// fresh directory of its own.
#include "cl_test.h"
#include "entity_reader.h"
#include "il_modules.h"

#include <sys/stat.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

using namespace cltest;
namespace fs = std::filesystem;

namespace {

// OFFSET comes from the build options, so different options give different
// results as well as different cache entries.
constexpr const char *kSource = R"(
kernel void affine(global int *data, int factor) {
  size_t i = get_global_id(0);
  data[i] = data[i] * factor + OFFSET;
}
)";

// Sets an environment variable for one test and restores it afterwards.
class ScopedEnv {
public:
  ScopedEnv(const char *name, const std::string &value) : name_(name) {
    if (const char *old = std::getenv(name))
      old_ = old;
    setenv(name, value.c_str(), 1);
  }
  ScopedEnv(const ScopedEnv &) = delete;
  ScopedEnv &operator=(const ScopedEnv &) = delete;
  ~ScopedEnv() {
    if (old_)
      setenv(name_, old_->c_str(), 1);
    else
      unsetenv(name_);
  }

private:
  const char *name_;
  std::optional<std::string> old_;
};

class ProgramCacheTest : public DeviceTest {
protected:
  void SetUp() override {
    DeviceTest::SetUp();
    std::string model = (fs::temp_directory_path() / "polymux-cache-test-XXXXXX").string();
    ASSERT_NE(mkdtemp(model.data()), nullptr);
    root_ = model;
    cacheDir_ = root_ / "cache";
  }
  void TearDown() override {
    std::error_code ignored;
    if (!root_.empty())
      fs::remove_all(root_, ignored);
  }

  // The cache entries (temporary files excluded).
  std::vector<fs::path> entries(const fs::path &dir) const {
    std::vector<fs::path> found;
    std::error_code ec;
    for (const fs::directory_entry &entry : fs::directory_iterator(dir, ec))
      if (entry.is_regular_file() && entry.path().extension() != ".tmp")
        found.push_back(entry.path());
    return found;
  }
  std::vector<fs::path> entries() const { return entries(cacheDir_); }

  // Runs `affine` from `program` on {0, 1, .., 7} with factor 3.
  std::vector<int> runAffine(cl_program program) {
    constexpr size_t kCount = 8;
    std::vector<int> data(kCount);
    for (size_t i = 0; i < kCount; ++i)
      data[i] = static_cast<int>(i);
    Kernel k = kernel(program, "affine");
    if (!k)
      return {};
    Mem mem = buffer(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(int) * kCount, data.data());
    cl_mem handle = mem;
    setArgs(k, handle, cl_int{3});
    size_t global = kCount;
    EXPECT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
    return read<int>(mem, kCount);
  }
  static std::vector<int> expectedAffine(int offset) {
    std::vector<int> values;
    for (int i = 0; i < 8; ++i)
      values.push_back(i * 3 + offset);
    return values;
  }

  static std::string readFile(const fs::path &path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  static void writeFile(const fs::path &path, const std::string &bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << bytes;
  }
  static ino_t inode(const fs::path &path) {
    struct stat info {};
    EXPECT_EQ(stat(path.c_str(), &info), 0) << path;
    return info.st_ino;
  }

  fs::path root_;
  fs::path cacheDir_;
};

} // namespace

TEST_P(ProgramCacheTest, SecondBuildIsAHit) {
  ScopedEnv cache("POLYMUX_CACHE", cacheDir_.string());
  {
    Program first = build(kSource, "-DOFFSET=5");
    ASSERT_TRUE(first);
    EXPECT_EQ(runAffine(first), expectedAffine(5));
  }
  std::vector<fs::path> stored = entries();
  ASSERT_EQ(stored.size(), 1u) << "the first build stores one entry in " << cacheDir_;
  const ino_t storedInode = inode(stored[0]);

  Program second = build(kSource, "-DOFFSET=5");
  ASSERT_TRUE(second);
  EXPECT_EQ(runAffine(second), expectedAffine(5));
  EXPECT_EQ(programBuildLog(second, device()).find_first_not_of(" \n"), std::string::npos)
      << "a cached build has no compiler log";
  // A miss would have stored the entry again (a new file renamed into place).
  ASSERT_EQ(entries().size(), 1u);
  EXPECT_EQ(inode(stored[0]), storedInode) << "the second build rewrote the entry instead of reading it";
}

// SPIR-V programs are cached too, keyed by the module as specialised.
TEST_P(ProgramCacheTest, SpirvProgramsAreCachedPerSpecialization) {
  size_t ilSize = 0;
  ASSERT_CL(clGetDeviceInfo(device(), CL_DEVICE_IL_VERSION, 0, nullptr, &ilSize));
  if (ilSize <= 1)
    GTEST_SKIP() << "the device reads no SPIR-V";
  ScopedEnv cache("POLYMUX_CACHE", cacheDir_.string());
  cl_device_id dev = device();
  auto buildWith = [&](const cl_int *value) {
    cl_int err = CL_SUCCESS;
    Program program(
        clCreateProgramWithIL(context_, il_modules::il_spec_constants, sizeof(il_modules::il_spec_constants), &err));
    EXPECT_CL(err);
    if (value)
      EXPECT_CL(clSetProgramSpecializationConstant(program, 1, sizeof(*value), value));
    EXPECT_CL(clBuildProgram(program, 1, &dev, "", nullptr, nullptr)) << programBuildLog(program, dev);
    Kernel k = kernel(program, "spec_constants");
    Mem out = buffer(CL_MEM_WRITE_ONLY, 4 * sizeof(cl_int));
    setArgs(k, out.get());
    size_t global = 1;
    EXPECT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
    return std::make_pair(read<cl_int>(out, 1)[0], programBuildLog(program, dev));
  };
  EXPECT_EQ(7, buildWith(nullptr).first);
  ASSERT_EQ(1u, entries().size());
  auto [value, log] = buildWith(nullptr);
  EXPECT_EQ(7, value);
  EXPECT_EQ(std::string::npos, log.find_first_not_of(" \n")) << "a cached build has no compiler log";
  EXPECT_EQ(1u, entries().size());
  const cl_int other = 42;
  EXPECT_EQ(42, buildWith(&other).first);
  EXPECT_EQ(2u, entries().size()) << "another specialization is another entry";
}

TEST_P(ProgramCacheTest, EntryIsUsedInsteadOfCompiling) {
  ScopedEnv cache("POLYMUX_CACHE", cacheDir_.string());
  ASSERT_TRUE(build(kSource, "-DOFFSET=1"));
  std::vector<fs::path> one = entries();
  ASSERT_EQ(one.size(), 1u);
  const std::string bytesForOne = readFile(one[0]);
  fs::remove(one[0]);

  ASSERT_TRUE(build(kSource, "-DOFFSET=2"));
  std::vector<fs::path> two = entries();
  ASSERT_EQ(two.size(), 1u);
  // Put the OFFSET=1 executable under the OFFSET=2 key: a build that reads
  // the cache runs it.
  writeFile(two[0], bytesForOne);
  Program fromCache = build(kSource, "-DOFFSET=2");
  ASSERT_TRUE(fromCache);
  EXPECT_EQ(runAffine(fromCache), expectedAffine(1));
}

TEST_P(ProgramCacheTest, DifferentOptionsMiss) {
  ScopedEnv cache("POLYMUX_CACHE", cacheDir_.string());
  Program first = build(kSource, "-DOFFSET=5");
  ASSERT_TRUE(first);
  ASSERT_EQ(entries().size(), 1u);
  Program second = build(kSource, "-DOFFSET=9");
  ASSERT_TRUE(second);
  EXPECT_EQ(entries().size(), 2u);
  EXPECT_EQ(runAffine(first), expectedAffine(5));
  EXPECT_EQ(runAffine(second), expectedAffine(9));
}

TEST_P(ProgramCacheTest, CorruptEntryIsRebuilt) {
  ScopedEnv cache("POLYMUX_CACHE", cacheDir_.string());
  ASSERT_TRUE(build(kSource, "-DOFFSET=4"));
  std::vector<fs::path> stored = entries();
  ASSERT_EQ(stored.size(), 1u);
  const std::string valid = readFile(stored[0]);
  ASSERT_FALSE(valid.empty());

  const std::string garbage(valid.size(), '\x5a');
  for (const std::string &damaged : {garbage, valid.substr(0, valid.size() / 2), std::string()}) {
    writeFile(stored[0], damaged);
    Program rebuilt = build(kSource, "-DOFFSET=4");
    ASSERT_TRUE(rebuilt);
    EXPECT_EQ(runAffine(rebuilt), expectedAffine(4));
    // The rebuild replaced the damaged entry.
    EXPECT_NE(readFile(stored[0]), damaged);
  }
}

TEST_P(ProgramCacheTest, KernelArgEntitiesSurviveTheCache) {
  ScopedEnv cache("POLYMUX_CACHE", cacheDir_.string());
  constexpr const char *kStructSource = R"(
    typedef struct { char tag; float4 position; int count; } Item;
    kernel void touch(global Item *items) { items[get_global_id(0)].count += 1; }
  )";
  auto describeArg = [&](cl_program program) {
    EntityReader reader(program);
    Kernel k = kernel(program, "touch");
    return k ? reader.describe(EntityReader::argEntity(k, 0)) : std::string();
  };
  Program first = build(kStructSource, "-cl-kernel-arg-info");
  ASSERT_TRUE(first);
  const std::string compiled = describeArg(first);
  EXPECT_NE(compiled.find("'position' 'float4'"), std::string::npos) << compiled;
  ASSERT_EQ(entries().size(), 1u);
  const ino_t storedInode = inode(entries()[0]);

  Program cached = build(kStructSource, "-cl-kernel-arg-info");
  ASSERT_TRUE(cached);
  ASSERT_EQ(entries().size(), 1u);
  EXPECT_EQ(inode(entries()[0]), storedInode) << "the second build did not come from the cache";
  EXPECT_EQ(describeArg(cached), compiled);
}

TEST_P(ProgramCacheTest, KeyIsThePreprocessedSource) {
  // CLBlast's sources say "includes a bounds check" in a comment; the key
  // no longer looks at words, and comments are not part of it.
  ScopedEnv cache("POLYMUX_CACHE", cacheDir_.string());
  const std::string commented = std::string("// This kernel includes a bounds check (#include <none>).\n") + kSource;
  {
    Program first = build(commented.c_str(), "-DOFFSET=5");
    ASSERT_TRUE(first);
    EXPECT_EQ(runAffine(first), expectedAffine(5));
  }
  ASSERT_EQ(entries().size(), 1u);
  const ino_t storedInode = inode(entries()[0]);
  Program again = build(commented.c_str(), "-DOFFSET=5");
  ASSERT_TRUE(again);
  EXPECT_EQ(runAffine(again), expectedAffine(5));
  ASSERT_EQ(entries().size(), 1u);
  EXPECT_EQ(inode(entries()[0]), storedInode) << "the second build did not come from the cache";
  // The same code with other comments preprocesses to the same text.
  const std::string otherComment = std::string("/* another comment */\n") + kSource;
  Program sameCode = build(otherComment.c_str(), "-DOFFSET=5");
  ASSERT_TRUE(sameCode);
  EXPECT_EQ(entries().size(), 1u);
}

TEST_P(ProgramCacheTest, IncludedFilesArePartOfTheKey) {
  ScopedEnv cache("POLYMUX_CACHE", cacheDir_.string());
  const fs::path includeDir = root_ / "include";
  fs::create_directories(includeDir);
  const std::string source = std::string("#include \"offset.h\"\n") + kSource;
  const std::string options = "-I " + includeDir.string();
  for (int offset : {7, 8, 7}) {
    writeFile(includeDir / "offset.h", "#define OFFSET " + std::to_string(offset) + "\n");
    Program program = build(source.c_str(), options.c_str());
    ASSERT_TRUE(program);
    EXPECT_EQ(runAffine(program), expectedAffine(offset)) << "with the header defining OFFSET " << offset;
  }
  // One entry per header content; the third build found the first's.
  EXPECT_EQ(entries().size(), 2u);
}

TEST_P(ProgramCacheTest, LeastRecentlyUsedEntriesArePruned) {
  ScopedEnv cache("POLYMUX_CACHE", cacheDir_.string());
  ASSERT_TRUE(build(kSource, "-DOFFSET=1"));
  ASSERT_EQ(entries().size(), 1u);
  const fs::path first = entries()[0];
  ASSERT_TRUE(build(kSource, "-DOFFSET=2"));
  ASSERT_EQ(entries().size(), 2u);
  const fs::path second = entries()[0] == first ? entries()[1] : entries()[0];
  // Both entries were last used an hour ago; a hit makes the first recent.
  const auto anHourAgo = fs::file_time_type::clock::now() - std::chrono::hours(1);
  fs::last_write_time(first, anHourAgo);
  fs::last_write_time(second, anHourAgo);
  ASSERT_TRUE(build(kSource, "-DOFFSET=1"));
  EXPECT_GT(fs::last_write_time(first), anHourAgo) << "a hit marks its entry as used";

  // Room for two entries of about this size: the third build pushes out the
  // least recently used one, the second.
  const uint64_t limit = fs::file_size(first) * 5 / 2;
  ScopedEnv max("POLYMUX_CACHE_MAX", std::to_string(limit));
  Program third = build(kSource, "-DOFFSET=3");
  ASSERT_TRUE(third);
  EXPECT_EQ(runAffine(third), expectedAffine(3));
  EXPECT_TRUE(fs::exists(first));
  EXPECT_FALSE(fs::exists(second));
  EXPECT_EQ(entries().size(), 2u);
}

TEST_P(ProgramCacheTest, DisabledWritesNothing) {
  // With POLYMUX_CACHE=0 the default location must stay untouched too.
  ScopedEnv xdg("XDG_CACHE_HOME", root_.string());
  ScopedEnv cache("POLYMUX_CACHE", "0");
  Program program = build(kSource, "-DOFFSET=3");
  ASSERT_TRUE(program);
  EXPECT_EQ(runAffine(program), expectedAffine(3));
  EXPECT_FALSE(fs::exists(root_ / "polymux"));
  EXPECT_TRUE(entries(root_).empty());
}

TEST_P(ProgramCacheTest, DefaultsToXdgCacheHome) {
  ScopedEnv xdg("XDG_CACHE_HOME", root_.string());
  ScopedEnv cache("POLYMUX_CACHE", ""); // empty: the default location
  Program program = build(kSource, "-DOFFSET=3");
  ASSERT_TRUE(program);
  EXPECT_EQ(entries(root_ / "polymux").size(), 1u);
}

TEST_P(ProgramCacheTest, CompileAndLinkAreNotCached) {
  ScopedEnv cache("POLYMUX_CACHE", cacheDir_.string());
  const char *text = kSource;
  cl_int err = CL_SUCCESS;
  Program object(clCreateProgramWithSource(context_, 1, &text, nullptr, &err));
  ASSERT_CL(err);
  cl_device_id dev = device();
  ASSERT_CL(clCompileProgram(object, 1, &dev, "-DOFFSET=6", 0, nullptr, nullptr, nullptr, nullptr));
  cl_program inputs[] = {object};
  Program linked(clLinkProgram(context_, 1, &dev, "", 1, inputs, nullptr, nullptr, &err));
  ASSERT_CL(err);
  EXPECT_EQ(runAffine(linked), expectedAffine(6));
  EXPECT_TRUE(entries().empty());
}

TEST_P(ProgramCacheTest, FailedBuildIsNotCached) {
  ScopedEnv cache("POLYMUX_CACHE", cacheDir_.string());
  const char *text = kSource; // OFFSET undefined: a compile error
  cl_int err = CL_SUCCESS;
  Program program(clCreateProgramWithSource(context_, 1, &text, nullptr, &err));
  ASSERT_CL(err);
  cl_device_id dev = device();
  EXPECT_CL_ERR(CL_BUILD_PROGRAM_FAILURE, clBuildProgram(program, 1, &dev, "", nullptr, nullptr));
  EXPECT_TRUE(entries().empty());
}

TEST_P(ProgramCacheTest, UnwritableDirectoryIsIgnored) {
  // A regular file where the cache directory should be: nothing can be
  // stored, and the build still succeeds.
  writeFile(root_ / "file", "x");
  ScopedEnv cache("POLYMUX_CACHE", (root_ / "file" / "cache").string());
  Program program = build(kSource, "-DOFFSET=7");
  ASSERT_TRUE(program);
  EXPECT_EQ(runAffine(program), expectedAffine(7));
}

CLTEST_INSTANTIATE(ProgramCacheTest);
