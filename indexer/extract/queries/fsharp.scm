; F# definitions and references (grammar bundled with tree-sitter-language-pack 0.13.0).
; A `let` with parameters is a function, any other a value (one inside a function is a
; local, which the symbol builder drops); unions are enums of their cases, records
; structs of their fields, other types (classes, interfaces) classes with their members
; as methods. Exceptions are types.

; ---- definitions -------------------------------------------------------------

(named_module name: (long_identifier) @name) @definition.module
(module_defn "module" . (identifier) @name) @definition.module

(function_or_value_defn (function_declaration_left . (identifier) @name)) @definition.function
(function_or_value_defn
  (value_declaration_left (identifier_pattern (long_identifier_or_op (identifier) @name)))) @definition.variable

; `type Amount = float` reads as a union of one case: without a `|` it is an abbreviation.
(union_type_defn (type_name type_name: (identifier) @name) block: (union_type_cases "|")) @definition.enum
(union_type_defn
  (type_name type_name: (identifier) @name) block: (union_type_cases . (union_type_case) .)) @definition.type
(union_type_cases "|" (union_type_case (identifier) @name) @definition.enum_member)
(enum_type_defn (type_name type_name: (identifier) @name)) @definition.enum
(enum_type_case (identifier) @name) @definition.enum_member
(record_type_defn (type_name type_name: (identifier) @name)) @definition.struct
(record_field (identifier) @name) @definition.field
(anon_type_defn (type_name type_name: (identifier) @name)) @definition.class
(type_abbrev_defn (type_name type_name: (identifier) @name)) @definition.type
(interface_type_defn (type_name type_name: (identifier) @name)) @definition.interface
(delegate_type_defn (type_name type_name: (identifier) @name)) @definition.type
(exception_definition exception_name: (long_identifier) @name) @definition.type

(member_defn (method_or_prop_defn name: (property_or_ident method: (identifier) @name))) @definition.method
(member_defn (method_or_prop_defn name: (property_or_ident . (identifier) @name .))) @definition.method
(member_defn (member_signature . (identifier) @name)) @definition.method

; ---- references --------------------------------------------------------------

(import_decl (long_identifier) @name) @reference.import

(application_expression . (long_identifier_or_op (identifier) @name)) @reference.call
(application_expression
  . (long_identifier_or_op (long_identifier (identifier) @qualifier . "." . (identifier) @name .))) @reference.call
; a value used as an argument or an operand (not the name in a `let` pattern)
(application_expression (_) (long_identifier_or_op (identifier) @name)) @reference.reference
(infix_expression (long_identifier_or_op (identifier) @name)) @reference.reference
(paren_expression (long_identifier_or_op (identifier) @name)) @reference.reference
(method_or_prop_defn (long_identifier_or_op (identifier) @name)) @reference.reference
(field_initializer value: (long_identifier_or_op (identifier) @name)) @reference.reference
(simple_type (long_identifier (identifier) @name .)) @reference.type
