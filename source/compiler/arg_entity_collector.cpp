#include "compiler/arg_entity_collector.h"

#include "compiler/kernel_info.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/Type.h"
#include "clang/Basic/SourceManager.h"

#include <map>
#include <utility>

namespace compiler {
namespace {

/// OpenCL C spelling of a scalar builtin type; empty for other builtins.
llvm::StringRef scalarName(const clang::BuiltinType &type) {
  switch (type.getKind()) {
  case clang::BuiltinType::Bool:
    return "bool";
  case clang::BuiltinType::Char_S:
  case clang::BuiltinType::SChar:
    return "char";
  case clang::BuiltinType::Char_U:
  case clang::BuiltinType::UChar:
    return "uchar";
  case clang::BuiltinType::Short:
    return "short";
  case clang::BuiltinType::UShort:
    return "ushort";
  case clang::BuiltinType::Int:
    return "int";
  case clang::BuiltinType::UInt:
    return "uint";
  case clang::BuiltinType::Long:
    return "long";
  case clang::BuiltinType::ULong:
    return "ulong";
  case clang::BuiltinType::Half:
    return "half";
  case clang::BuiltinType::Float:
    return "float";
  case clang::BuiltinType::Double:
    return "double";
  default:
    return {};
  }
}

EntityAddressSpace entityAddressSpace(clang::LangAS addressSpace) {
  switch (addressSpace) {
  case clang::LangAS::opencl_global:
  case clang::LangAS::opencl_global_device:
  case clang::LangAS::opencl_global_host:
    return EntityAddressSpace::Global;
  case clang::LangAS::opencl_constant:
    return EntityAddressSpace::Constant;
  case clang::LangAS::opencl_local:
    return EntityAddressSpace::Local;
  case clang::LangAS::opencl_generic:
    return EntityAddressSpace::Generic;
  default:
    return EntityAddressSpace::Private;
  }
}

uint32_t qualifierBits(clang::Qualifiers qualifiers) {
  return (qualifiers.hasConst() ? QualConst : 0u) | (qualifiers.hasVolatile() ? QualVolatile : 0u) |
         (qualifiers.hasRestrict() ? QualRestrict : 0u);
}

/// Builds one kernel's entity table. Each distinct (type, declared name)
/// gets one entity; a type is entered in the table before its parts, so
/// recursive types (a struct holding a pointer to itself) terminate.
class EntityBuilder {
public:
  explicit EntityBuilder(clang::ASTContext &context) : context_(context) {}

  EntityIndex entityOf(clang::QualType type, llvm::StringRef name) {
    type = withoutSugar(type);
    auto key = std::make_pair(type.getAsOpaquePtr(), name.str());
    if (auto found = indices_.find(key); found != indices_.end())
      return found->second;
    auto index = static_cast<EntityIndex>(entities_.size());
    entities_.emplace_back();
    indices_.emplace(std::move(key), index);
    TypeEntity entity = describe(type, name);
    entities_[index] = std::move(entity);
    return index;
  }

  std::vector<TypeEntity> take() { return std::move(entities_); }

private:
  /// Typedefs the implementation declares (uint, float4, size_t in
  /// opencl-c-base.h) name built-in types, not the program's aliases.
  bool isImplementationTypedef(const clang::TypedefNameDecl &decl) const {
    clang::SourceLocation location = decl.getLocation();
    return location.isInvalid() || context_.getSourceManager().isInSystemHeader(location);
  }

  /// Strips sugar other than the program's own typedefs (parentheses,
  /// attributes, typeof, built-in typedefs), keeping qualifiers.
  clang::QualType withoutSugar(clang::QualType type) const {
    while (true) {
      const auto *alias = llvm::dyn_cast<clang::TypedefType>(type.getTypePtr());
      if (alias && !isImplementationTypedef(*alias->getDecl()))
        return type;
      clang::QualType desugared = type.getSingleStepDesugaredType(context_);
      if (desugared == type)
        return type;
      type = desugared;
    }
  }

  /// The OpenCL C spelling of `type` (TypeEntity::typeName).
  std::string spelling(clang::QualType type) const {
    type = withoutSugar(type);
    const clang::Type *node = type.getTypePtr();
    if (const auto *alias = llvm::dyn_cast<clang::TypedefType>(node))
      return alias->getDecl()->getName().str();
    if (const auto *builtin = llvm::dyn_cast<clang::BuiltinType>(node)) {
      llvm::StringRef name = scalarName(*builtin);
      return name.empty() ? builtin->getName(context_.getPrintingPolicy()).str() : name.str();
    }
    if (const auto *vector = llvm::dyn_cast<clang::VectorType>(node))
      return spelling(vector->getElementType()) + std::to_string(vector->getNumElements());
    if (const auto *pointer = llvm::dyn_cast<clang::PointerType>(node))
      return spelling(context_.removeAddrSpaceQualType(pointer->getPointeeType())) + "*";
    if (const auto *array = llvm::dyn_cast<clang::ConstantArrayType>(node))
      return spelling(array->getElementType()) + "[" + std::to_string(array->getSize().getZExtValue()) + "]";
    if (const auto *array = llvm::dyn_cast<clang::IncompleteArrayType>(node))
      return spelling(array->getElementType()) + "[]";
    if (const auto *record = llvm::dyn_cast<clang::RecordType>(node)) {
      const clang::RecordDecl *decl = record->getDecl();
      if (decl->getName().empty())
        return {};
      return (decl->isUnion() ? "union " : "struct ") + decl->getName().str();
    }
    if (const auto *enumType = llvm::dyn_cast<clang::EnumType>(node))
      return "enum " + enumType->getDecl()->getName().str();
    if (const auto *atomic = llvm::dyn_cast<clang::AtomicType>(node))
      return "atomic_" + spelling(atomic->getValueType());
    return type.getUnqualifiedType().getAsString(context_.getPrintingPolicy());
  }

  /// Size and alignment of a type with a layout.
  void setLayout(TypeEntity &entity, clang::QualType type) const {
    if (type->isIncompleteType())
      return;
    entity.size = context_.getTypeSizeInChars(type).getQuantity();
    entity.alignment = context_.getTypeAlignInChars(type).getQuantity();
  }

  TypeEntity describe(clang::QualType type, llvm::StringRef name) {
    TypeEntity entity;
    entity.name = name.str();
    entity.typeName = spelling(type);
    entity.qualifiers = qualifierBits(type.getLocalQualifiers());
    const clang::Type *node = type.getTypePtr();
    if (const auto *alias = llvm::dyn_cast<clang::TypedefType>(node)) {
      entity.kind = EntityKind::Typedef;
      setLayout(entity, type);
      entity.element = entityOf(alias->getDecl()->getUnderlyingType(), "");
    } else if (const auto *builtin = llvm::dyn_cast<clang::BuiltinType>(node)) {
      if (!scalarName(*builtin).empty() || builtin->isInteger() || builtin->isFloatingPoint()) {
        entity.kind = EntityKind::Scalar;
        setLayout(entity, type);
      }
    } else if (const auto *vector = llvm::dyn_cast<clang::VectorType>(node)) {
      entity.kind = EntityKind::Vector;
      setLayout(entity, type);
      entity.element = entityOf(vector->getElementType(), "");
      entity.count = vector->getNumElements();
    } else if (const auto *pointer = llvm::dyn_cast<clang::PointerType>(node)) {
      entity.kind = EntityKind::Pointer;
      setLayout(entity, type);
      clang::QualType pointee = pointer->getPointeeType();
      entity.addressSpace = entityAddressSpace(pointee.getAddressSpace());
      entity.element = entityOf(context_.removeAddrSpaceQualType(pointee), "");
    } else if (const auto *array = llvm::dyn_cast<clang::ArrayType>(node)) {
      describeArray(entity, type, *array);
    } else if (const auto *record = llvm::dyn_cast<clang::RecordType>(node)) {
      describeRecord(entity, type, *record);
    } else if (llvm::isa<clang::EnumType, clang::AtomicType>(node)) {
      entity.kind = EntityKind::Scalar;
      setLayout(entity, type);
    }
    return entity;
  }

  void describeArray(TypeEntity &entity, clang::QualType type, const clang::ArrayType &array) {
    if (const auto *constant = llvm::dyn_cast<clang::ConstantArrayType>(&array)) {
      entity.count = constant->getSize().getZExtValue();
      setLayout(entity, type);
    } else if (llvm::isa<clang::IncompleteArrayType>(array)) {
      // A flexible array member: no size of its own.
      entity.alignment = context_.getTypeAlignInChars(array.getElementType()).getQuantity();
    } else {
      return; // variable-length arrays cannot appear in a kernel's interface
    }
    entity.kind = EntityKind::Array;
    entity.element = entityOf(array.getElementType(), "");
  }

  void describeRecord(TypeEntity &entity, clang::QualType type, const clang::RecordType &record) {
    const clang::RecordDecl *decl = record.getDecl()->getDefinition();
    if (!decl || decl->isInvalidDecl())
      return; // declared, never defined: Opaque
    entity.kind = decl->isUnion() ? EntityKind::Union : EntityKind::Struct;
    setLayout(entity, type);
    const clang::ASTRecordLayout &layout = context_.getASTRecordLayout(decl);
    for (const clang::FieldDecl *field : decl->fields()) {
      EntityMember member;
      member.offset = layout.getFieldOffset(field->getFieldIndex()) / context_.getCharWidth();
      member.entity = entityOf(field->getType(), field->getName());
      entity.members.push_back(member);
    }
  }

  clang::ASTContext &context_;
  std::vector<TypeEntity> entities_;
  std::map<std::pair<void *, std::string>, EntityIndex> indices_;
};

class ArgEntityCollector final : public clang::ASTConsumer {
public:
  explicit ArgEntityCollector(ArgEntityMap &out) : out_(out) {}

  void HandleTranslationUnit(clang::ASTContext &context) override {
    if (context.getDiagnostics().hasErrorOccurred())
      return;
    for (const clang::Decl *decl : context.getTranslationUnitDecl()->decls()) {
      const auto *function = llvm::dyn_cast<clang::FunctionDecl>(decl);
      if (function && function->hasAttr<clang::DeviceKernelAttr>() && function->doesThisDeclarationHaveABody())
        out_[function->getName().str()] = collectArgEntities(context, *function);
    }
  }

private:
  ArgEntityMap &out_;
};

} // namespace

KernelArgEntities collectArgEntities(clang::ASTContext &context, const clang::FunctionDecl &kernel) {
  EntityBuilder builder(context);
  KernelArgEntities result;
  for (const clang::ParmVarDecl *parameter : kernel.parameters())
    result.args.push_back(builder.entityOf(parameter->getType(), parameter->getName()));
  result.entities = builder.take();
  return result;
}

std::unique_ptr<clang::ASTConsumer> createArgEntityCollector(ArgEntityMap &out) {
  return std::make_unique<ArgEntityCollector>(out);
}

} // namespace compiler
