; C definitions and references (grammar bundled with tree-sitter-language-pack 0.13.0).
; A declarator nests the name: `char **p`, `int a[3]`, `int (*cb)(int)`; the patterns
; spell out the usual shapes. Function prototypes are not definitions (ctags agrees).
; `typedef struct tag {...} name_t;` gives the struct `tag` and the type `name_t`, the
; latter captured on its declarator alone so that the struct does not nest under it.
; The grammar reads `int8_t`, `size_t` and friends as primitive types, also as typedef names.

; ---- definitions -------------------------------------------------------------

(function_definition
  declarator: [
    (function_declarator declarator: (identifier) @name)
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))
  ]) @definition.function

; a macro after the parameters (`void g(void) __THROW {`) leaves the declarator in an
; ERROR node: recover the name from there
(function_definition
  (ERROR (function_declarator declarator: (identifier) @name))
  body: (_)) @definition.function

(struct_specifier name: (type_identifier) @name body: (field_declaration_list)) @definition.struct
(union_specifier name: (type_identifier) @name body: (field_declaration_list)) @definition.union
(enum_specifier name: (type_identifier) @name body: (enumerator_list)) @definition.enum
(enumerator name: (identifier) @name) @definition.enum_member

(field_declaration
  declarator: [
    (field_identifier) @name
    (pointer_declarator declarator: (field_identifier) @name)
    (pointer_declarator declarator: (pointer_declarator declarator: (field_identifier) @name))
    (array_declarator declarator: (field_identifier) @name)
    (array_declarator declarator: (array_declarator declarator: (field_identifier) @name))
    (pointer_declarator declarator: (array_declarator declarator: (field_identifier) @name))
    (array_declarator declarator: (pointer_declarator declarator: (field_identifier) @name))
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (field_identifier) @name)))
    (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (field_identifier) @name))))
  ]) @definition.field
(field_declaration (bitfield_clause) declarator: (field_identifier) @name) @definition.field

; typedefs; with a struct body, the typedef is captured on its declarator alone (the engine
; keeps the tighter node); anonymous struct/union/enum bodies are named by the typedef
(type_definition
  declarator: [
    (type_identifier) @name
    (primitive_type) @name
    (pointer_declarator declarator: (type_identifier) @name)
    (pointer_declarator declarator: (pointer_declarator declarator: (type_identifier) @name))
    (array_declarator declarator: (type_identifier) @name)
    (function_declarator declarator: (type_identifier) @name)
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name)))
    (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name))))
  ]) @definition.type
(type_definition
  type: [
    (struct_specifier name: (_) body: (_))
    (union_specifier name: (_) body: (_))
    (enum_specifier name: (_) body: (_))
  ]
  declarator: [
    (type_identifier) @name @definition.type
    (pointer_declarator declarator: (type_identifier) @name @definition.type)
  ])
(type_definition type: (struct_specifier !name body: (_)) declarator: (type_identifier) @name) @definition.struct
(type_definition type: (union_specifier !name body: (_)) declarator: (type_identifier) @name) @definition.union
(type_definition type: (enum_specifier !name body: (_)) declarator: (type_identifier) @name) @definition.enum

; variables (the engine drops those inside functions)
(declaration
  declarator: [
    (identifier) @name
    (init_declarator declarator: [
      (identifier) @name
      (pointer_declarator declarator: (identifier) @name)
      (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @name))
      (array_declarator declarator: (identifier) @name)
      (array_declarator declarator: (array_declarator declarator: (identifier) @name))
      (pointer_declarator declarator: (array_declarator declarator: (identifier) @name))
      (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))
    ])
    (pointer_declarator declarator: (identifier) @name)
    (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @name))
    (array_declarator declarator: (identifier) @name)
    (array_declarator declarator: (array_declarator declarator: (identifier) @name))
    (pointer_declarator declarator: (array_declarator declarator: (identifier) @name))
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))
  ]) @definition.variable

(preproc_def name: (identifier) @name) @definition.macro
(preproc_function_def name: (identifier) @name) @definition.macro

; ---- references --------------------------------------------------------------

(call_expression function: (identifier) @name) @reference.call
(call_expression
  function: (field_expression argument: (_) @qualifier field: (field_identifier) @name)) @reference.call

(preproc_include path: (string_literal (string_content) @name)) @reference.import
(preproc_include path: (system_lib_string) @name) @reference.import

(_ type: (type_identifier) @name) @reference.type
(struct_specifier name: (type_identifier) @name !body) @reference.type
(union_specifier name: (type_identifier) @name !body) @reference.type
(enum_specifier name: (type_identifier) @name !body) @reference.type

(argument_list (identifier) @name) @reference.reference
(return_statement (identifier) @name) @reference.reference
