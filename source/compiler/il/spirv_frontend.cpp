#include "compiler/il/spirv_frontend.h"

#include "compiler/il/builtin_shims.h"
#include "compiler/il/image_handles.h"
#include "compiler/il/retarget_spir_module.h"
#include "compiler/il/spirv_translator.h"
#include "mux/status.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

namespace compiler::il {
namespace {

/// The probe's parameters name the target's spaces for SPIR's 0 to 4.
llvm::Expected<TargetConvention> conventionOf(const llvm::Module &shims) {
  const llvm::Function *probe = shims.getFunction(kProbeFunction);
  if (!probe || probe->arg_size() < 4)
    return mux::makeError(mux::Status::Failure, "internal error: the address space probe did not compile");
  TargetConvention convention;
  convention.triple = shims.getTargetTriple().str();
  convention.dataLayout = shims.getDataLayoutStr();
  for (const llvm::Argument &arg : probe->args())
    convention.addressSpaces[arg.getArgNo()] = arg.getType()->getPointerAddressSpace();
  convention.functionCallingConv = probe->getCallingConv();
  return convention;
}

/// What Clang gives every OpenCL C function: convergent (a helper may call
/// barrier) and the target's code generation attributes.
void giveFunctionAttributes(llvm::Module &module, const llvm::AttributeSet &targetAttributes) {
  for (llvm::Function &function : module) {
    if (function.isDeclaration())
      continue;
    function.addFnAttr(llvm::Attribute::Convergent);
    for (const llvm::Attribute &attribute : targetAttributes)
      if (attribute.isStringAttribute() && !function.hasFnAttribute(attribute.getKindAsString()))
        function.addFnAttr(attribute);
  }
}

/// LinkOnceODR definitions (SPV_KHR_linkonce_odr) become weak_odr: a
/// compiled object is linked into the program one module at a time, and
/// llvm::Linker drops a linkonce definition that nothing linked so far
/// refers to, even when a later module calls it.
void keepLinkOnceDefinitions(llvm::Module &module) {
  for (llvm::GlobalValue &value : module.global_values())
    if (value.hasLinkOnceODRLinkage() && !value.isDeclaration())
      value.setLinkage(llvm::GlobalValue::WeakODRLinkage);
}

/// kernel_arg_name from the argument names (SPIR-V OpName) and "const" for
/// __constant arguments, as Clang emits them.
void completeKernelMetadata(llvm::Module &module) {
  llvm::LLVMContext &context = module.getContext();
  for (llvm::Function &function : module) {
    if (function.getCallingConv() != llvm::CallingConv::SPIR_KERNEL || function.isDeclaration())
      continue;
    if (!function.getMetadata("kernel_arg_name")) {
      llvm::SmallVector<llvm::Metadata *, 8> names;
      for (llvm::Argument &arg : function.args())
        names.push_back(llvm::MDString::get(context, arg.getName()));
      function.setMetadata("kernel_arg_name", llvm::MDNode::get(context, names));
    }
    llvm::MDNode *spaces = function.getMetadata("kernel_arg_addr_space");
    llvm::MDNode *qualifiers = function.getMetadata("kernel_arg_type_qual");
    if (!spaces || !qualifiers || spaces->getNumOperands() != qualifiers->getNumOperands())
      continue;
    llvm::SmallVector<llvm::Metadata *, 8> updated;
    for (unsigned i = 0; i < spaces->getNumOperands(); ++i) {
      auto *space = llvm::mdconst::dyn_extract<llvm::ConstantInt>(spaces->getOperand(i));
      auto *text = llvm::dyn_cast<llvm::MDString>(qualifiers->getOperand(i));
      llvm::StringRef value = text ? text->getString() : "";
      if (space && space->getZExtValue() == 2 && !value.contains("const"))
        updated.push_back(llvm::MDString::get(context, value.empty() ? "const" : ("const " + value).str()));
      else
        updated.push_back(qualifiers->getOperand(i));
    }
    function.setMetadata("kernel_arg_type_qual", llvm::MDNode::get(context, updated));
  }
}

bool isGenericPointer(const llvm::Type *type) {
  return type->isPtrOrPtrVectorTy() && type->getPointerAddressSpace() == 4;
}

/// Whether anything in `spir` is a pointer to SPIR's generic space.
bool usesGenericPointers(const llvm::Module &spir) {
  for (const llvm::Function &function : spir) {
    for (const llvm::Argument &arg : function.args())
      if (isGenericPointer(arg.getType()))
        return true;
    for (const llvm::BasicBlock &block : function)
      for (const llvm::Instruction &instruction : block) {
        if (isGenericPointer(instruction.getType()))
          return true;
        for (const llvm::Value *operand : instruction.operands())
          if (isGenericPointer(operand->getType()))
            return true;
      }
  }
  return false;
}

bool hasFeature(const FrontendConfig &config, llvm::StringRef feature) {
  return llvm::is_contained(config.extensions, feature);
}

/// The image types the device lacks fail here rather than in the probes'
/// compilation, whose log would not say why.
llvm::Error checkImageSupport(const ImageHandles &handles, const FrontendConfig &config) {
  auto unsupported = [](const std::string &what) {
    return mux::makeError(mux::Status::Failure,
                          "error: the SPIR-V module uses " + what + ", which this device does not support");
  };
  if (!handles.types.empty() && !hasFeature(config, "__opencl_c_images"))
    return unsupported("images or samplers (" + handles.types.front() + ")");
  for (const std::string &type : handles.types) {
    if (llvm::StringRef(type).starts_with("read_write") && !hasFeature(config, "__opencl_c_read_write_images"))
      return unsupported("read-write images (" + type + ")");
    if (type == "write_only image3d_t" && !hasFeature(config, "__opencl_c_3d_image_writes"))
      return unsupported("writes to 3D images (" + type + ")");
  }
  return llvm::Error::success();
}

} // namespace

std::string spirvVersionsRead() {
  if (!spirvTranslatorPath())
    return {};
  // llvm-spirv-15 reads 1.4 modules too, but aborts on several of the
  // instructions 1.4 added (OpPtrDiff, OpCopyLogical, OpDecorateString,
  // two memory operands on OpCopyMemory: CTS test_spirv_new spirv14_*), so
  // 1.4 is accepted and not reported.
  return "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3";
}

llvm::Expected<std::unique_ptr<llvm::Module>> readSpirvProgram(llvm::LLVMContext &context,
                                                               std::span<const std::byte> il,
                                                               const FrontendConfig &config, std::string &log) {
  auto bitcode = translateSpirv(il, log);
  if (!bitcode)
    return bitcode.takeError();
  auto spir = llvm::parseBitcodeFile(llvm::MemoryBufferRef(llvm::StringRef(bitcode->data(), bitcode->size()), "spirv"),
                                     context);
  if (!spir)
    return mux::makeError(mux::Status::Failure,
                          "the SPIR-V translator's bitcode did not load: " + llvm::toString(spir.takeError()));
  if (!hasFeature(config, "__opencl_c_generic_address_space") && usesGenericPointers(**spir))
    return mux::makeError(mux::Status::Failure, "error: the SPIR-V module uses generic pointers (the GenericPointer "
                                                "capability), which this device does not support");
  auto plan = planBuiltinShims(**spir);
  if (!plan)
    return plan.takeError();
  auto handles = findImageHandles(**spir);
  if (!handles)
    return handles.takeError();
  if (llvm::Error error = checkImageSupport(*handles, config))
    return error;
  plan->source += handles->probeSource;

  BuildOptions shimOptions;
  shimOptions.clStd = std::min(300u, config.maxClStd);
  std::string shimLog;
  auto shims = compileOpenCLC(context, plan->source, shimOptions, {}, config, shimLog);
  if (!shims) {
    log += "error: the builtins the SPIR-V module calls do not compile for this device:\n" + shimLog;
    return shims.takeError();
  }
  auto convention = conventionOf(**shims);
  if (!convention)
    return convention.takeError();
  llvm::AttributeSet targetAttributes = (*shims)->getFunction(kProbeFunction)->getAttributes().getFnAttrs();
  if (llvm::Error error = giveHandlesTargetTypes(**spir, *handles, **shims, *convention))
    return error;

  for (const BuiltinShim &shim : plan->shims)
    (*spir)->getFunction(shim.spirName)->setName(kSpirDeclarationPrefix + shim.spirName);
  auto module = retargetSpirModule(**spir, *convention);
  if (!module)
    return module.takeError();
  if (llvm::Linker::linkModules(**module, std::move(*shims)))
    return mux::makeError(mux::Status::Failure, "internal error: the builtin shims did not link");
  if (llvm::Error error = callThroughShims(**module, *plan))
    return error;
  giveFunctionAttributes(**module, targetAttributes);
  completeKernelMetadata(**module);
  keepLinkOnceDefinitions(**module);

  std::string problems;
  llvm::raw_string_ostream stream(problems);
  if (llvm::verifyModule(**module, &stream))
    return mux::makeError(mux::Status::Failure, "internal error: the SPIR-V program's IR is broken: " + problems);
  return module;
}

} // namespace compiler::il
