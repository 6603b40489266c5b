#include "compiler/kernel_metadata.h"

#include "compiler/arg_entity_metadata.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Metadata.h"

namespace compiler {
namespace {

llvm::StringRef stringAt(const llvm::MDNode *node, unsigned index) {
  if (!node || index >= node->getNumOperands())
    return {};
  if (auto *string = llvm::dyn_cast_or_null<llvm::MDString>(node->getOperand(index)))
    return string->getString();
  return {};
}

uint64_t integerAt(const llvm::MDNode *node, unsigned index) {
  if (!node || index >= node->getNumOperands())
    return 0;
  if (auto *constant = llvm::mdconst::dyn_extract_or_null<llvm::ConstantInt>(node->getOperand(index)))
    return constant->getZExtValue();
  return 0;
}

std::array<size_t, 3> sizeTriple(const llvm::MDNode *node) {
  return {integerAt(node, 0), integerAt(node, 1), integerAt(node, 2)};
}

AddressSpace addressSpace(uint64_t openclAddressSpace) {
  // Clang numbers them as the SPIR convention in kernel_arg_addr_space.
  switch (openclAddressSpace) {
  case 1:
    return AddressSpace::Global;
  case 2:
    return AddressSpace::Constant;
  case 3:
    return AddressSpace::Local;
  case 4:
    return AddressSpace::Generic;
  default:
    return AddressSpace::Private;
  }
}

AccessQualifier accessQualifier(llvm::StringRef text) {
  if (text == "read_only")
    return AccessQualifier::ReadOnly;
  if (text == "write_only")
    return AccessQualifier::WriteOnly;
  if (text == "read_write")
    return AccessQualifier::ReadWrite;
  return AccessQualifier::None;
}

uint32_t typeQualifiers(llvm::StringRef text) {
  uint32_t bits = 0;
  llvm::SmallVector<llvm::StringRef, 4> words;
  text.split(words, ' ', -1, false);
  for (llvm::StringRef word : words) {
    if (word == "const")
      bits |= QualConst;
    else if (word == "restrict")
      bits |= QualRestrict;
    else if (word == "volatile")
      bits |= QualVolatile;
    else if (word == "pipe")
      bits |= QualPipe;
  }
  return bits;
}

/// OpenCL C spelling of a vec_type_hint type.
std::string vecTypeHintName(const llvm::MDNode *node) {
  if (!node || node->getNumOperands() < 2)
    return {};
  auto *value = llvm::dyn_cast<llvm::ValueAsMetadata>(node->getOperand(0));
  if (!value)
    return {};
  llvm::Type *type = value->getType();
  unsigned lanes = 1;
  if (auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(type)) {
    lanes = vector->getNumElements();
    type = vector->getElementType();
  }
  bool isSigned = integerAt(node, 1) != 0;
  std::string name;
  if (type->isFloatTy())
    name = "float";
  else if (type->isDoubleTy())
    name = "double";
  else if (type->isHalfTy())
    name = "half";
  else if (type->isIntegerTy(8))
    name = isSigned ? "char" : "uchar";
  else if (type->isIntegerTy(16))
    name = isSigned ? "short" : "ushort";
  else if (type->isIntegerTy(32))
    name = isSigned ? "int" : "uint";
  else if (type->isIntegerTy(64))
    name = isSigned ? "long" : "ulong";
  else
    return {};
  if (lanes > 1)
    name += std::to_string(lanes);
  return name;
}

std::string sizeTripleText(const char *attribute, const std::array<size_t, 3> &sizes) {
  return std::string(attribute) + "(" + std::to_string(sizes[0]) + "," + std::to_string(sizes[1]) + "," +
         std::to_string(sizes[2]) + ")";
}

/// OpenCL C's image types, as kernel_arg_base_type names them (an
/// application's struct may be named image_... too).
bool isImageTypeName(llvm::StringRef name) {
  return llvm::is_contained({"image1d_t", "image1d_buffer_t", "image1d_array_t", "image2d_t", "image2d_array_t",
                             "image3d_t", "image2d_depth_t", "image2d_array_depth_t", "image2d_msaa_t",
                             "image2d_array_msaa_t", "image2d_msaa_depth_t", "image2d_array_msaa_depth_t"},
                            name);
}

} // namespace

bool isImageArgument(const llvm::Argument &argument) {
  const llvm::MDNode *types = argument.getParent()->getMetadata("kernel_arg_base_type");
  return isImageTypeName(stringAt(types, argument.getArgNo()));
}

std::array<size_t, 3> requiredWorkGroupSize(const llvm::Function &kernel) {
  return sizeTriple(kernel.getMetadata("reqd_work_group_size"));
}

std::array<size_t, 3> workGroupSizeHint(const llvm::Function &kernel) {
  return sizeTriple(kernel.getMetadata("work_group_size_hint"));
}

bool isKernel(const llvm::Function &function) { return function.getCallingConv() == llvm::CallingConv::SPIR_KERNEL; }

llvm::SmallVector<llvm::Function *, 8> kernelFunctions(llvm::Module &module) {
  llvm::SmallVector<llvm::Function *, 8> kernels;
  for (llvm::Function &function : module)
    if (isKernel(function) && !function.isDeclaration())
      kernels.push_back(&function);
  return kernels;
}

KernelInfo kernelInfo(const llvm::Function &kernel) {
  const llvm::DataLayout &layout = kernel.getDataLayout();
  const llvm::MDNode *addressSpaces = kernel.getMetadata("kernel_arg_addr_space");
  const llvm::MDNode *access = kernel.getMetadata("kernel_arg_access_qual");
  const llvm::MDNode *types = kernel.getMetadata("kernel_arg_type");
  const llvm::MDNode *qualifiers = kernel.getMetadata("kernel_arg_type_qual");
  const llvm::MDNode *names = kernel.getMetadata("kernel_arg_name");

  KernelInfo info;
  info.name = kernel.getName().str();
  for (const llvm::Argument &argument : kernel.args()) {
    unsigned index = argument.getArgNo();
    KernelArgInfo arg;
    arg.addressSpace = addressSpace(integerAt(addressSpaces, index));
    arg.access = accessQualifier(stringAt(access, index));
    arg.typeName = stringAt(types, index).str();
    arg.typeQualifiers = typeQualifiers(stringAt(qualifiers, index));
    arg.name = stringAt(names, index).str();
    llvm::Type *type = argument.getType();
    // Images and samplers are pointers on CPU triples (pmx_image.h), whose
    // type names tell them apart from other pointers; on the SPIR-V triple
    // they are target types (spirv.Image, spirv.Sampler) laid out as
    // pointers, which the vulkan compiler lowers.
    const llvm::StringRef baseType = stringAt(kernel.getMetadata("kernel_arg_base_type"), index);
    if ((type->isPointerTy() || llvm::isa<llvm::TargetExtType>(type)) &&
        (isImageTypeName(baseType) || baseType == "sampler_t")) {
      arg.kind = baseType == "sampler_t" ? KernelArgInfo::Kind::Sampler : KernelArgInfo::Kind::Image;
      arg.size = layout.getTypeAllocSize(type).getFixedValue();
      arg.alignment = layout.getABITypeAlign(type).value();
    } else if (type->isPointerTy() && !argument.hasByValAttr()) {
      switch (arg.addressSpace) {
      case AddressSpace::Global:
        arg.kind = KernelArgInfo::Kind::GlobalPointer;
        break;
      case AddressSpace::Constant:
        arg.kind = KernelArgInfo::Kind::ConstantPointer;
        break;
      case AddressSpace::Local:
        arg.kind = KernelArgInfo::Kind::LocalPointer;
        break;
      default:
        arg.kind = KernelArgInfo::Kind::Value;
        break;
      }
      arg.size = layout.getPointerSize(type->getPointerAddressSpace());
      arg.alignment = layout.getPointerABIAlignment(type->getPointerAddressSpace()).value();
    } else {
      llvm::Type *valueType = argument.hasByValAttr() ? argument.getParamByValType() : type;
      arg.kind = KernelArgInfo::Kind::Value;
      arg.size = layout.getTypeAllocSize(valueType).getFixedValue();
      llvm::MaybeAlign paramAlign = argument.getParamAlign();
      arg.alignment = std::max<uint64_t>(paramAlign.valueOrOne().value(), layout.getABITypeAlign(valueType).value());
    }
    info.args.push_back(std::move(arg));
  }
  if (std::optional<KernelArgEntities> entities = argEntities(kernel)) {
    info.entities = std::move(entities->entities);
    for (size_t i = 0; i < info.args.size(); ++i)
      info.args[i].entity = entities->args[i];
  }
  info.reqdWorkGroupSize = requiredWorkGroupSize(kernel);
  info.workGroupSizeHint = workGroupSizeHint(kernel);
  info.vecTypeHint = vecTypeHintName(kernel.getMetadata("vec_type_hint"));

  llvm::SmallVector<std::string, 3> attributes;
  if (info.reqdWorkGroupSize[0])
    attributes.push_back(sizeTripleText("reqd_work_group_size", info.reqdWorkGroupSize));
  if (info.workGroupSizeHint[0])
    attributes.push_back(sizeTripleText("work_group_size_hint", info.workGroupSizeHint));
  if (!info.vecTypeHint.empty())
    attributes.push_back("vec_type_hint(" + info.vecTypeHint + ")");
  info.attributes = llvm::join(attributes, " ");
  return info;
}

std::vector<KernelInfo> kernelInfos(llvm::Module &module) {
  std::vector<KernelInfo> infos;
  for (llvm::Function *kernel : kernelFunctions(module))
    infos.push_back(kernelInfo(*kernel));
  return infos;
}

} // namespace compiler
