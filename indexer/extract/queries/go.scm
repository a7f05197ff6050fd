; Go definitions and references (grammar bundled with tree-sitter-language-pack 0.13.0).
; Methods are declared outside their type: `@receiver` names the receiver type, which
; the engine puts in front of the method's qualified name (`Order.Total`).

; ---- definitions -------------------------------------------------------------

(function_declaration name: (identifier) @name) @definition.function

(method_declaration
  receiver: (parameter_list (parameter_declaration type: [
    (type_identifier) @receiver
    (pointer_type (type_identifier) @receiver)
    (generic_type type: (type_identifier) @receiver)
    (pointer_type (generic_type type: (type_identifier) @receiver))
  ]))
  name: (field_identifier) @name) @definition.method

(type_spec name: (type_identifier) @name type: (struct_type)) @definition.struct
(type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface
; an embedded type is a base: its methods are the embedding type's (`engine.GET` is the
; embedded RouterGroup's), and an embedded interface's are the embedding interface's
(type_spec
  name: (type_identifier) @name
  type: (struct_type
    (field_declaration_list (field_declaration !name type: (_) @extends)))) @definition.struct
(type_spec
  name: (type_identifier) @name
  type: (interface_type
    (type_elem . [(type_identifier) (qualified_type)] @extends .))) @definition.interface
(type_spec
  name: (type_identifier) @name
  type: [(type_identifier) (generic_type) (qualified_type) (pointer_type) (array_type)
         (slice_type) (map_type) (channel_type) (function_type) (negated_type)
         (parenthesized_type)]) @definition.type
(type_alias name: (type_identifier) @name) @definition.type

; struct fields, also embedded ones (named after their type, as ctags does)
(field_declaration name: (field_identifier) @name) @definition.field
(field_declaration
  !name
  type: [
    (type_identifier) @name
    (qualified_type name: (type_identifier) @name)
    (pointer_type [(type_identifier) @name (qualified_type name: (type_identifier) @name)])
    (generic_type type: (type_identifier) @name)
  ]) @definition.field

; interface methods
(method_elem name: (field_identifier) @name) @definition.method

; package-level constants and variables; the engine drops those inside functions
(const_spec name: (identifier) @name) @definition.constant
(var_spec name: (identifier) @name) @definition.variable

; ---- references --------------------------------------------------------------

(call_expression function: (identifier) @name) @reference.call
(call_expression
  function: (selector_expression operand: (_) @qualifier field: (field_identifier) @name)) @reference.call

(import_spec name: (package_identifier) @alias path: (_ (interpreted_string_literal_content) @name)) @reference.import
(import_spec !name path: (_ (interpreted_string_literal_content) @name)) @reference.import

(_ type: (type_identifier) @name) @reference.type
(_ type: (qualified_type package: (package_identifier) @qualifier name: (type_identifier) @name)) @reference.type
(_ result: (type_identifier) @name) @reference.type
(pointer_type (type_identifier) @name) @reference.type
(slice_type element: (type_identifier) @name) @reference.type
(map_type (type_identifier) @name) @reference.type
(type_elem (type_identifier) @name) @reference.type
(type_elem (qualified_type package: (package_identifier) @qualifier name: (type_identifier) @name)) @reference.type

; names used as values: arguments, results, composite literal elements, operands,
; assignments, conditions, switch cases, indexes, ranges
(argument_list (identifier) @name) @reference.reference
(return_statement (expression_list (identifier) @name)) @reference.reference
(keyed_element value: (literal_element (identifier) @name)) @reference.reference
(literal_value (literal_element (identifier) @name)) @reference.reference
(expression_list (identifier) @name) @reference.reference
(binary_expression [left: (identifier) @name right: (identifier) @name]) @reference.reference
(unary_expression operand: (identifier) @name) @reference.reference
(parenthesized_expression (identifier) @name) @reference.reference
(index_expression [operand: (identifier) @name index: (identifier) @name]) @reference.reference
(range_clause right: (identifier) @name) @reference.reference
(expression_switch_statement value: (identifier) @name) @reference.reference
(inc_statement (identifier) @name) @reference.reference
(dec_statement (identifier) @name) @reference.reference
(send_statement value: (identifier) @name) @reference.reference
(go_statement (identifier) @name) @reference.reference
(defer_statement (identifier) @name) @reference.reference
; `pkg.Name` and `value.field` read, not called
(selector_expression operand: (identifier) @qualifier field: (field_identifier) @name) @reference.reference
; a value before a dot (`quoteEscaper.Replace(s)`, `bufPool.Get()`): a package-level
; variable's use (a package's name links nothing; a local's is the function's own)
(selector_expression operand: (identifier) @name) @reference.reference

; types anywhere: a package-qualified type, array, channel and generic types
(qualified_type package: (package_identifier) @qualifier name: (type_identifier) @name) @reference.type
(array_type element: (type_identifier) @name) @reference.type
(channel_type value: (type_identifier) @name) @reference.type
(parenthesized_type (type_identifier) @name) @reference.type

; the type a variable is declared with (`@alias` names the variable): what a method
; called on it belongs to (`c.Next()` with `c *Context`)
(parameter_declaration
  name: (identifier) @alias
  type: [
    (type_identifier) @name
    (pointer_type (type_identifier) @name)
    (qualified_type package: (package_identifier) @qualifier name: (type_identifier) @name)
    (pointer_type (qualified_type package: (package_identifier) @qualifier name: (type_identifier) @name))
  ]) @reference.type
(var_spec
  name: (identifier) @alias
  type: [
    (type_identifier) @name
    (pointer_type (type_identifier) @name)
    (qualified_type package: (package_identifier) @qualifier name: (type_identifier) @name)
    (pointer_type (qualified_type package: (package_identifier) @qualifier name: (type_identifier) @name))
  ]) @reference.type
(short_var_declaration
  left: (expression_list . (identifier) @alias .)
  right: (expression_list . [
    (composite_literal type: [
      (type_identifier) @name
      (qualified_type package: (package_identifier) @qualifier name: (type_identifier) @name)])
    (unary_expression operand: (composite_literal type: [
      (type_identifier) @name
      (qualified_type package: (package_identifier) @qualifier name: (type_identifier) @name)]))
  ] .)) @reference.type

; a call whose result the variable holds (`engine := router.New()`, `admin :=
; engine.Group("/admin")`): typed by what the callee's signature returns
(short_var_declaration
  left: (expression_list . (identifier) @alias .)
  right: (expression_list . (call_expression function: [
    (identifier) @name
    (selector_expression operand: (identifier) @qualifier field: (field_identifier) @name)]) .)) @reference.call

; ---- names a function binds itself (`@local`): its bare uses there are not the
; package's definitions of those names
(parameter_declaration name: (identifier) @name @local)
(variadic_parameter_declaration name: (identifier) @name @local)
(short_var_declaration left: (expression_list (identifier) @name @local))
(range_clause left: (expression_list (identifier) @name @local))
(var_declaration (var_spec name: (identifier) @name @local))
