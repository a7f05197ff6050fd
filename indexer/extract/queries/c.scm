; inherits: c_common
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

; ---- references --------------------------------------------------------------

(call_expression
  function: (field_expression argument: (_) @qualifier field: (field_identifier) @name)) @reference.call


(_ type: (type_identifier) @name) @reference.type
(struct_specifier name: (type_identifier) @name !body) @reference.type
(union_specifier name: (type_identifier) @name !body) @reference.type
(enum_specifier name: (type_identifier) @name !body) @reference.type

(subscript_expression [argument: (identifier) @name index: (identifier) @name]) @reference.reference
