; What C and C++ declare alike, inherited by c.scm and cpp.scm (`; inherits: c_common`):
; typedefs, variables and macros, and the plainest references. Not a language.
; A declarator nests the name: `char **p`, `int a[3]`, `int (*cb)(int)`; the patterns
; spell out the usual shapes.

; ---- definitions -------------------------------------------------------------

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

(preproc_include path: (string_literal (string_content) @name)) @reference.import
(preproc_include path: (system_lib_string) @name) @reference.import

(argument_list (identifier) @name) @reference.reference
(return_statement (identifier) @name) @reference.reference

; names used as values: operands, assignments, initializers, conditions, indexes,
; `sizeof(name)`, case labels
(binary_expression [left: (identifier) @name right: (identifier) @name]) @reference.reference
(unary_expression argument: (identifier) @name) @reference.reference
(pointer_expression argument: (identifier) @name) @reference.reference
(update_expression argument: (identifier) @name) @reference.reference
(assignment_expression [left: (identifier) @name right: (identifier) @name]) @reference.reference
(conditional_expression [condition: (identifier) @name consequence: (identifier) @name alternative: (identifier) @name]) @reference.reference
(parenthesized_expression (identifier) @name) @reference.reference
(init_declarator value: (identifier) @name) @reference.reference
(initializer_list (identifier) @name) @reference.reference
(initializer_pair value: (identifier) @name) @reference.reference
(field_expression argument: (identifier) @name) @reference.reference
(cast_expression value: (identifier) @name) @reference.reference
(case_statement value: (identifier) @name) @reference.reference
(comma_expression [left: (identifier) @name right: (identifier) @name]) @reference.reference
(array_declarator size: (identifier) @name) @reference.reference

; a macro the preprocessor tests is used: `#ifdef NAME`, `#ifndef NAME` (an include
; guard's), `defined(NAME)`, `#if NAME`, `#elif NAME`
(preproc_ifdef name: (identifier) @name) @reference.reference
(preproc_defined (identifier) @name) @reference.reference
(preproc_if condition: (identifier) @name) @reference.reference
(preproc_elif condition: (identifier) @name) @reference.reference
; ... and the names in a macro's body, text the grammar leaves unparsed (extract/macro_words.py)
(preproc_def value: (preproc_arg) @name @words) @reference.reference
(preproc_function_def parameters: (preproc_params) @parameters value: (preproc_arg) @name @words) @reference.reference

; ---- names a function binds itself (`@local`): its bare uses there are not the
; file's or the program's definitions of those names
(parameter_declaration declarator: [
  (identifier) @name @local
  (pointer_declarator declarator: (identifier) @name @local)
  (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @name @local))
  (array_declarator declarator: (identifier) @name @local)
])
(declaration declarator: [
  (identifier) @name @local
  (init_declarator declarator: [
    (identifier) @name @local
    (pointer_declarator declarator: (identifier) @name @local)
    (array_declarator declarator: (identifier) @name @local)
  ])
  (pointer_declarator declarator: (identifier) @name @local)
  (array_declarator declarator: (identifier) @name @local)
])
