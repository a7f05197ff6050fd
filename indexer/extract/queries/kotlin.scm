; Kotlin definitions and references (grammar bundled with tree-sitter-language-pack 0.13.0).
; This grammar has no field names and one class_declaration for classes, interfaces and
; enums (the keyword tells them apart). A supertype written as a constructor call
; (`Entity()`) is the superclass; a bare type is an implemented interface.

; ---- definitions -------------------------------------------------------------

(class_declaration
  (modifiers (annotation) @decorator)*
  (type_identifier) @name
  (delegation_specifier (constructor_invocation (user_type) @extends))?) @definition.class
(class_declaration
  (type_identifier) @name
  (delegation_specifier (user_type) @implements)) @definition.class
(class_declaration "interface" (type_identifier) @name) @definition.interface
(class_declaration "interface"
  (type_identifier) @name
  (delegation_specifier (user_type) @extends)) @definition.interface
(class_declaration "enum" (type_identifier) @name) @definition.enum

(object_declaration
  (modifiers (annotation) @decorator)*
  (type_identifier) @name
  (delegation_specifier [(user_type) (constructor_invocation (user_type))] @implements)?) @definition.object
(companion_object (type_identifier) @name) @definition.object

(enum_entry (simple_identifier) @name) @definition.enum_member

(function_declaration
  (modifiers (annotation) @decorator)*
  (simple_identifier) @name) @definition.function
(secondary_constructor "constructor" @name) @definition.constructor

(class_parameter (binding_pattern_kind) (simple_identifier) @name) @definition.property

(source_file
  (property_declaration
    (modifiers (annotation) @decorator)*
    (variable_declaration (simple_identifier) @name)) @definition.variable)
(class_body
  (property_declaration
    (modifiers (annotation) @decorator)*
    (variable_declaration (simple_identifier) @name)) @definition.property)
(property_declaration
  (modifiers (property_modifier) @_const)
  (variable_declaration (simple_identifier) @name)
  (#eq? @_const "const")) @definition.constant

(type_alias (type_identifier) @name) @definition.type

; ---- references --------------------------------------------------------------

(call_expression (simple_identifier) @name) @reference.call
(call_expression
  (navigation_expression
    (_) @qualifier
    (navigation_suffix (simple_identifier) @name))) @reference.call

(import_header
  (identifier (simple_identifier) @name .) @qualifier
  (import_alias (type_identifier) @alias)?) @reference.import

; a parameter's or a variable's declared type; `@alias` names the variable (what a method
; called on it belongs to)
(parameter . (simple_identifier) @alias
  [(user_type (type_identifier) @name)
   (nullable_type (user_type (type_identifier) @name))]) @reference.type
(class_parameter (simple_identifier) @alias
  [(user_type (type_identifier) @name)
   (nullable_type (user_type (type_identifier) @name))]) @reference.type
(variable_declaration . (simple_identifier) @alias
  [(user_type (type_identifier) @name)
   (nullable_type (user_type (type_identifier) @name))]) @reference.type
(function_declaration (user_type (type_identifier) @name)) @reference.type
(function_declaration (nullable_type (user_type (type_identifier) @name))) @reference.type
(type_projection (user_type (type_identifier) @name)) @reference.type
(type_alias (user_type (type_identifier) @name)) @reference.type
(receiver_type (user_type (type_identifier) @name)) @reference.type
(type_parameter (user_type (type_identifier) @name)) @reference.type
(callable_reference (type_identifier) @name) @reference.type
; a function's reference (`peeked.use(::labelIndex)`, `String::length`) and an infix
; call (`a valueEquals b`, `1 to 2`): their uses
(callable_reference . (simple_identifier) @name) @reference.reference
(callable_reference (type_identifier) @qualifier (simple_identifier) @name) @reference.reference
(infix_expression (_) . (simple_identifier) @name . (_)) @reference.call

; `val doc = cleaner.clean(dirty)`, `val doc = Document()`: the variable (`@alias`) holds
; what the call returns
(property_declaration
  (variable_declaration . (simple_identifier) @alias .)
  (call_expression [
    (simple_identifier) @name
    (navigation_expression (_) @qualifier (navigation_suffix (simple_identifier) @name))])) @reference.call

(navigation_expression . (simple_identifier) @name) @reference.reference
; a property read (`fileSystem.isFakeFileSystem`, `buffer.size`); a call is read as a call
(navigation_expression
  (_) @qualifier
  (navigation_suffix (simple_identifier) @name)) @reference.reference
(value_argument (simple_identifier) @name) @reference.reference
; names as values: operands (`n + LIMIT`, `a ?: DEFAULT`, `!FLAG`), indexes (`TABLE[KEY]`),
; initializers and assigned values, returns, string templates (`"$PREFIX"`), loops,
; `when` subjects, conditions and branches (`0 -> NONE`), parameter defaults
(additive_expression (simple_identifier) @name) @reference.reference
(multiplicative_expression (simple_identifier) @name) @reference.reference
(comparison_expression (simple_identifier) @name) @reference.reference
(equality_expression (simple_identifier) @name) @reference.reference
(conjunction_expression (simple_identifier) @name) @reference.reference
(disjunction_expression (simple_identifier) @name) @reference.reference
(elvis_expression (simple_identifier) @name) @reference.reference
(range_expression (simple_identifier) @name) @reference.reference
(prefix_expression (simple_identifier) @name) @reference.reference
(indexing_expression . (simple_identifier) @name) @reference.reference
(indexing_suffix (simple_identifier) @name) @reference.reference
(property_declaration (simple_identifier) @name) @reference.reference
(assignment (simple_identifier) @name) @reference.reference
(jump_expression (simple_identifier) @name) @reference.reference
(interpolated_identifier) @name @reference.reference
(interpolated_expression (simple_identifier) @name) @reference.reference
(for_statement (simple_identifier) @name) @reference.reference
(when_subject (simple_identifier) @name) @reference.reference
(when_condition (simple_identifier) @name) @reference.reference
(if_expression condition: (simple_identifier) @name) @reference.reference
(while_statement (simple_identifier) @name) @reference.reference
(do_while_statement (simple_identifier) @name) @reference.reference
(control_structure_body (simple_identifier) @name) @reference.reference
(function_value_parameters (simple_identifier) @name) @reference.reference

; ---- names a function binds itself (`@local`): its bare uses there are not the file's
; or the package's definitions of the same name (parameters, locals, loop and lambda
; variables, caught exceptions)
(parameter . (simple_identifier) @name @local)
(variable_declaration . (simple_identifier) @name @local)
(catch_block (simple_identifier) @name @local)
