; Elm definitions and references (grammar bundled with tree-sitter-language-pack 0.13.0).
; A value declaration with parameters is a function, one without a constant-like value;
; custom types are enums of their variants, type aliases of records are structs.

; ---- definitions -------------------------------------------------------------

(module_declaration name: (upper_case_qid) @name) @definition.module

(file
  (value_declaration
    functionDeclarationLeft: (function_declaration_left
      . (lower_case_identifier) @name
      pattern: (_))) @definition.function)
(file
  (value_declaration
    functionDeclarationLeft: (function_declaration_left . (lower_case_identifier) @name)) @definition.variable)
(port_annotation name: (lower_case_identifier) @name) @definition.function

(type_declaration name: (upper_case_identifier) @name) @definition.enum
(union_variant name: (upper_case_identifier) @name) @definition.enum_member
(type_alias_declaration
  name: (upper_case_identifier) @name
  typeExpression: (type_expression part: (record_type))) @definition.struct
(type_alias_declaration name: (upper_case_identifier) @name) @definition.type
(type_alias_declaration
  (type_expression (record_type (field_type name: (lower_case_identifier) @name) @definition.field)))

; ---- references --------------------------------------------------------------

(import_clause moduleName: (upper_case_qid) @name asClause: (as_clause name: (_) @alias)?) @reference.import

(function_call_expr target: (value_expr name: (value_qid . (lower_case_identifier) @name))) @reference.call
(function_call_expr
  target: (value_expr
    name: (value_qid (upper_case_identifier) @qualifier . (dot) . (lower_case_identifier) @name))) @reference.call
(function_call_expr target: (value_expr name: (upper_case_qid) @name)) @reference.call
(function_call_expr arg: (value_expr name: (value_qid . (lower_case_identifier) @name .))) @reference.reference
(type_ref (upper_case_qid (upper_case_identifier) @name .)) @reference.type
