; Dart definitions and references (grammar bundled with tree-sitter-language-pack 0.13.0).
; The grammar keeps a function's signature and its body as siblings: a function or
; method is captured at its signature, and the body that follows it (@body) extends its
; span, so references in the body belong to it.

; ---- definitions -------------------------------------------------------------

(class_definition
  name: (identifier) @name
  superclass: (superclass (type_identifier) @extends (mixins (type_identifier) @extends)?)?
  interfaces: (interfaces (type_identifier) @implements)?) @definition.class
(mixin_declaration (identifier) @name) @definition.trait
(extension_declaration name: (identifier) @name) @definition.class
(enum_declaration name: (identifier) @name) @definition.enum
(enum_constant name: (identifier) @name) @definition.enum_member
(type_alias . (type_identifier) @name) @definition.type

(function_signature name: (identifier) @name) @definition.function
(getter_signature name: (identifier) @name) @definition.property
(setter_signature name: (identifier) @name) @definition.property
(constructor_signature . (identifier) @name . (formal_parameter_list)) @definition.constructor
(constructor_signature (identifier) . (identifier) @name) @definition.constructor
(factory_constructor_signature (identifier) @name .) @definition.constructor

; the bodies following top-level functions and members
(program
  (function_signature name: (identifier) @name) @definition.function
  .
  (function_body) @body)
(_
  (method_signature
    [
      (function_signature name: (identifier) @name) @definition.function
      (getter_signature name: (identifier) @name) @definition.property
      (setter_signature name: (identifier) @name) @definition.property
    ])
  .
  (function_body) @body)
(_
  (method_signature
    (constructor_signature . (identifier) @name . (formal_parameter_list)) @definition.constructor)
  .
  (function_body) @body)
(_
  (method_signature
    (constructor_signature (identifier) . (identifier) @name) @definition.constructor)
  .
  (function_body) @body)

(program
  (static_final_declaration_list
    (static_final_declaration (identifier) @name) @definition.variable))
(program
  (initialized_identifier_list (initialized_identifier . (identifier) @name) @definition.variable))
(class_body
  (declaration
    (initialized_identifier_list (initialized_identifier . (identifier) @name) @definition.field)))
(class_body
  (declaration
    (static_final_declaration_list
      (static_final_declaration (identifier) @name) @definition.field)))
(class_body
  (declaration (identifier_list (identifier) @name) @definition.field))

; ---- references --------------------------------------------------------------

(import_specification
  (configurable_uri (uri (string_literal) @name))
  (identifier)? @alias) @reference.import

((identifier) @name . (selector (argument_part))) @reference.call
((identifier) @qualifier
  . (selector (unconditional_assignable_selector (identifier) @name))
  . (selector (argument_part))) @reference.call
(new_expression (type_identifier) @name) @reference.call

(type_identifier) @name @reference.type
(argument (identifier) @name) @reference.reference
(return_statement (identifier) @name) @reference.reference
; names as values: operands (`n + limit`, `n > max`, `x == none`), `${x}` interpolations,
; initializers, indexes, arrow bodies (each pattern costs the query's compile about 4 ms:
; products, `&&` / `||`, ternaries and conditions are left out)
(additive_expression (identifier) @name) @reference.reference
(relational_expression (identifier) @name) @reference.reference
(equality_expression (identifier) @name) @reference.reference
(template_substitution (identifier) @name) @reference.reference
(initialized_variable_definition value: (identifier) @name) @reference.reference
(index_selector (identifier) @name) @reference.reference
(function_body (identifier) @name) @reference.reference

; ---- names a function binds itself (`@local`): its bare uses there are not the
; library's definitions of the same name (parameters, local variables)
(formal_parameter name: (identifier) @name @local)
(initialized_variable_definition name: (identifier) @name @local)
