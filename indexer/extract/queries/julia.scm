; Julia definitions and references (grammar bundled with tree-sitter-language-pack 0.13.0).
; A string right before a definition is its docstring; `A <: B` gives extends.

; ---- definitions -------------------------------------------------------------

(module_definition name: (identifier) @name) @definition.module

(abstract_definition
  (type_head [(identifier) @name
              (binary_expression . [(identifier) @name (parametrized_type_expression . (identifier) @name)]
                                   (_) @extends .)])) @definition.type
(struct_definition
  (type_head [(identifier) @name
              (parametrized_type_expression . (identifier) @name)
              (binary_expression . [(identifier) @name (parametrized_type_expression . (identifier) @name)]
                                   (_) @extends .)])) @definition.struct
(struct_definition (block (typed_expression . (identifier) @name) @definition.field))
(struct_definition (block (identifier) @name @definition.field))

(function_definition
  (signature [(call_expression . (identifier) @name)
              (typed_expression . (call_expression . (identifier) @name))
              (where_expression . (call_expression . (identifier) @name))
              (where_expression . (typed_expression . (call_expression . (identifier) @name)))])) @definition.function
(function_definition
  (signature (call_expression . (field_expression value: (_) @receiver (identifier) @name .)))) @definition.function
(assignment
  . [(call_expression . (identifier) @name)
     (where_expression . (call_expression . (identifier) @name))]
  (operator) @_eq
  (#eq? @_eq "=")) @definition.function
(assignment
  . (call_expression . (field_expression value: (_) @receiver (identifier) @name .))
  (operator) @_eq
  (#eq? @_eq "=")) @definition.function
(macro_definition (signature (call_expression . (identifier) @name))) @definition.macro

(const_statement (assignment . (identifier) @name)) @definition.constant

; docstrings
((string_literal) @doc . (abstract_definition (type_head [(identifier) @name (binary_expression . (identifier) @name)])) @definition.type)
((string_literal) @doc . (struct_definition (type_head [(identifier) @name (parametrized_type_expression . (identifier) @name) (binary_expression . [(identifier) @name (parametrized_type_expression . (identifier) @name)])])) @definition.struct)
((string_literal) @doc . (function_definition (signature [(call_expression . (identifier) @name) (where_expression . (call_expression . (identifier) @name))])) @definition.function)
((string_literal) @doc . (assignment . (call_expression . (identifier) @name)) @definition.function)
((string_literal) @doc . (macro_definition (signature (call_expression . (identifier) @name))) @definition.macro)
((string_literal) @doc . (const_statement (assignment . (identifier) @name)) @definition.constant)

; ---- references --------------------------------------------------------------

(using_statement (identifier) @name) @reference.import
(using_statement (import_path) @name) @reference.import
(import_statement (identifier) @name) @reference.import
(import_statement (import_path) @name) @reference.import
(import_statement (selected_import . [(identifier) (import_path)] @qualifier [(identifier) (operator)] @name)) @reference.import
(using_statement (selected_import . [(identifier) (import_path)] @qualifier [(identifier) (operator)] @name)) @reference.import

(call_expression . (identifier) @name) @reference.call
(call_expression . (field_expression value: (_) @qualifier (identifier) @name .)) @reference.call
(broadcast_call_expression . (identifier) @name) @reference.call
(macrocall_expression (macro_identifier) @name) @reference.call

(typed_expression (_) . (identifier) @name .) @reference.type
(typed_expression (_) . (parametrized_type_expression . (identifier) @name)) @reference.type
(curly_expression (identifier) @name) @reference.type
