; Zig definitions and references (grammar bundled with tree-sitter-language-pack 0.13.0).
; A container is a constant bound to `struct`, `enum` or `union`: the declaration
; takes the container's kind, and the functions inside it are its methods.

; ---- definitions -------------------------------------------------------------

(Decl
  (VarDecl
    variable_type_function: (IDENTIFIER) @name
    (ErrorUnionExpr (SuffixExpr (ContainerDecl (ContainerDeclType) @_type)))
    (#match? @_type "^struct")) @definition.struct)
(Decl
  (VarDecl
    variable_type_function: (IDENTIFIER) @name
    (ErrorUnionExpr (SuffixExpr (ContainerDecl (ContainerDeclType) @_type)))
    (#match? @_type "^enum")) @definition.enum)
(Decl
  (VarDecl
    variable_type_function: (IDENTIFIER) @name
    (ErrorUnionExpr (SuffixExpr (ContainerDecl (ContainerDeclType) @_type)))
    (#match? @_type "^union")) @definition.union)
;; a file is a struct: `const Server = @This();` names it
(source_file
  (Decl
    (VarDecl
      variable_type_function: (IDENTIFIER) @name
      (ErrorUnionExpr) @_value .
      (#eq? @_value "@This()")) @definition.struct))
;; other constants and variables (a value that is not a container)
(source_file
  (Decl
    (VarDecl
      variable_type_function: (IDENTIFIER) @name
      (ErrorUnionExpr) @_value .
      (#not-match? @_value "^((extern |packed )?(struct|enum|union|opaque)|@This\\(\\)$)")) @definition.variable))
(ContainerDecl
  (Decl
    (VarDecl
      variable_type_function: (IDENTIFIER) @name
      (ErrorUnionExpr) @_value .
      (#not-match? @_value "^(extern |packed )?(struct|enum|union|opaque)")) @definition.field))

(Decl (FnProto function: (IDENTIFIER) @name)) @definition.function
(ContainerField field_member: (IDENTIFIER) @name) @definition.field
(ContainerDecl
  (ContainerDeclType) @_type
  (#eq? @_type "enum")
  (ContainerField (ErrorUnionExpr (SuffixExpr variable_type_function: (IDENTIFIER) @name))) @definition.enum_member)

; ---- references --------------------------------------------------------------

(SuffixExpr
  (BUILTINIDENTIFIER) @_import
  (FnCallArguments (ErrorUnionExpr (SuffixExpr (STRINGLITERALSINGLE) @name)))
  (#eq? @_import "@import")) @reference.import
; `const posix = @import("posix.zig");`: the name the module is bound to (`@alias`)
(VarDecl
  variable_type_function: (IDENTIFIER) @alias
  (ErrorUnionExpr
    (SuffixExpr
      (BUILTINIDENTIFIER) @_import
      (FnCallArguments (ErrorUnionExpr (SuffixExpr (STRINGLITERALSINGLE) @name))) .))
  (#eq? @_import "@import")) @reference.import

(SuffixExpr variable_type_function: (IDENTIFIER) @name . (FnCallArguments)) @reference.call
(SuffixExpr
  variable_type_function: (IDENTIFIER) @qualifier
  (FieldOrFnCall)* @qualifier
  . (FieldOrFnCall function_call: (IDENTIFIER) @name)) @reference.call

; a value read through a dot (`request.Request`, `Handler.reqQuery` passed as a function,
; `http.Protocol.HTTP11`): a capitalised name after a dot, or any name after a
; capitalised one (a value's own fields, `buf.len`, `self.allocator`, are left out: half
; of zls's field reads, which no rule could link); and the first name as a use of what it
; names (`log` of `log.info(...)`, `worker` of `worker.HTTPConn`)
(SuffixExpr
  variable_type_function: (IDENTIFIER) @qualifier
  (FieldOrFnCall)* @qualifier
  . (FieldOrFnCall field_access: (IDENTIFIER) @name)
  (#match? @name "^[A-Z]")) @reference.reference
(SuffixExpr
  variable_type_function: (IDENTIFIER) @qualifier @_type
  (FieldOrFnCall)* @qualifier
  . (FieldOrFnCall field_access: (IDENTIFIER) @name)
  (#match? @_type "^[A-Z]")
  (#match? @name "^[a-z_]")) @reference.reference
(SuffixExpr variable_type_function: (IDENTIFIER) @name . (FieldOrFnCall)) @reference.reference

(ParamType (ErrorUnionExpr (SuffixExpr variable_type_function: (IDENTIFIER) @name))) @reference.type
(FnProto (ErrorUnionExpr (SuffixExpr variable_type_function: (IDENTIFIER) @name))) @reference.type
(ContainerField
  field_member: (IDENTIFIER)
  (ErrorUnionExpr (SuffixExpr variable_type_function: (IDENTIFIER) @name))) @reference.type
(FnCallArguments (ErrorUnionExpr (SuffixExpr variable_type_function: (IDENTIFIER) @name .))) @reference.reference
; names as values, wherever an expression is a bare name (`n + LIMIT`, `-LIMIT`, `x[KEY]`,
; `const x = LIMIT`, conditions, loop items, elements; a type written there too), and a
; name indexed (`TABLE[KEY]`). One pattern with any parent: each pattern naming its parent
; cost the query's compile about 13 ms in Zig's grammar, in every process that parses Zig
(_ (ErrorUnionExpr (SuffixExpr variable_type_function: (IDENTIFIER) @name .))) @reference.reference
(SuffixExpr variable_type_function: (IDENTIFIER) @name . (SuffixOp)) @reference.reference

; ---- names a function binds itself (`@local`): its bare uses there are not the file's
; definitions of the same name (parameters, local constants and variables, captures)
(ParamDecl parameter: (IDENTIFIER) @name @local)
(Statement (VarDecl variable_type_function: (IDENTIFIER) @name @local))
(PtrPayload variable: (IDENTIFIER) @name @local)
(PtrListPayload variable: (IDENTIFIER) @name @local)
(PtrIndexPayload variable: (IDENTIFIER) @name @local)
(Payload variable: (IDENTIFIER) @name @local)
