; Swift definitions and references (grammar bundled with tree-sitter-language-pack 0.13.0).
; One class_declaration node serves class, struct, enum, actor and extension; the keyword
; tells them apart. Swift does not mark a superclass: a class's first inherited type is
; recorded as extends and the rest as implemented protocols; a struct, enum or extension
; only conforms (implements).

; ---- definitions -------------------------------------------------------------

(class_declaration
  (modifiers (attribute) @decorator)*
  ["class" "actor"]
  name: (type_identifier) @name
  . (inheritance_specifier inherits_from: (_) @extends)?) @definition.class
(class_declaration
  ["class" "actor"]
  name: (type_identifier) @name
  (inheritance_specifier)
  (inheritance_specifier inherits_from: (_) @implements)) @definition.class

(class_declaration
  (modifiers (attribute) @decorator)*
  "struct"
  name: (type_identifier) @name
  (inheritance_specifier inherits_from: (_) @implements)*) @definition.struct

(class_declaration
  (modifiers (attribute) @decorator)*
  "enum"
  name: (type_identifier) @name
  (inheritance_specifier inherits_from: (_) @implements)*) @definition.enum

(class_declaration
  "extension"
  name: (user_type) @name
  (inheritance_specifier inherits_from: (_) @implements)*) @definition.class

(protocol_declaration
  (modifiers (attribute) @decorator)*
  name: (type_identifier) @name
  (inheritance_specifier inherits_from: (_) @extends)*) @definition.interface

(enum_entry name: (simple_identifier) @name) @definition.enum_member

(function_declaration
  (modifiers (attribute) @decorator)*
  name: (simple_identifier) @name) @definition.function
(protocol_function_declaration name: (simple_identifier) @name) @definition.method
(init_declaration
  (modifiers (attribute) @decorator)*
  "init" @name) @definition.constructor
(deinit_declaration "deinit" @name) @definition.method
(subscript_declaration "subscript" @name) @definition.method

(source_file
  (property_declaration
    (modifiers (attribute) @decorator)*
    name: (pattern bound_identifier: (simple_identifier) @name)) @definition.variable)
(source_file
  (property_declaration
    (value_binding_pattern) @_let
    name: (pattern bound_identifier: (simple_identifier) @name)
    (#eq? @_let "let")) @definition.constant)
(class_body
  (property_declaration
    (modifiers (attribute) @decorator)*
    name: (pattern bound_identifier: (simple_identifier) @name)) @definition.property)
(enum_class_body
  (property_declaration
    name: (pattern bound_identifier: (simple_identifier) @name)) @definition.property)
(protocol_property_declaration
  name: (pattern bound_identifier: (simple_identifier) @name)) @definition.property

(typealias_declaration name: (type_identifier) @name) @definition.type

; ---- references --------------------------------------------------------------

(call_expression (simple_identifier) @name) @reference.call
(call_expression
  (navigation_expression
    target: (_) @qualifier
    suffix: (navigation_suffix suffix: (simple_identifier) @name))) @reference.call

(import_declaration (identifier (simple_identifier) @name .) @qualifier) @reference.import

; a parameter's or a property's declared type, and a property a constructor call
; initialises (`let session = Session()`): `@alias` names the variable (what a method
; called on it belongs to)
(parameter (simple_identifier) @alias .
  [(user_type (type_identifier) @name)
   (optional_type (user_type (type_identifier) @name))]) @reference.type
(property_declaration
  name: (pattern bound_identifier: (simple_identifier) @alias)
  (type_annotation [(user_type (type_identifier) @name)
                    (optional_type (user_type (type_identifier) @name))])) @reference.type
(property_declaration
  name: (pattern bound_identifier: (simple_identifier) @alias)
  value: (call_expression (simple_identifier) @name (#match? @name "^[A-Z]"))) @reference.call

(type_annotation (user_type (type_identifier) @name)) @reference.type
(type_annotation (optional_type (user_type (type_identifier) @name))) @reference.type
(parameter (user_type (type_identifier) @name)) @reference.type
(parameter (optional_type (user_type (type_identifier) @name))) @reference.type
(function_declaration name: (user_type (type_identifier) @name)) @reference.type
(function_declaration name: (optional_type (user_type (type_identifier) @name))) @reference.type
(protocol_function_declaration name: (user_type (type_identifier) @name)) @reference.type
(subscript_declaration name: (user_type (type_identifier) @name)) @reference.type
(array_type (user_type (type_identifier) @name)) @reference.type
(dictionary_type (user_type (type_identifier) @name)) @reference.type
(typealias_declaration value: (user_type (type_identifier) @name)) @reference.type
(type_arguments (user_type (type_identifier) @name)) @reference.type
(as_expression (user_type (type_identifier) @name)) @reference.type

(navigation_expression target: (simple_identifier) @name (#not-match? @name "^[$]")) @reference.reference
(value_argument value: (simple_identifier) @name (#not-match? @name "^[$]")) @reference.reference
; names as values: operands (`n + LIMIT`, `n > MAX`, `opt ?? DEFAULT`, `-STEP`, not `.none`:
; an enum case the type decides), initializers and assigned values, returns, interpolations
; (`"\(PREFIX)"`), `switch` subjects, loop sequences. Each pattern costs the query's compile
; about 10 ms in Swift's grammar, in every process that parses Swift: conditions, ternaries,
; products, ranges, elements and `&&` / `||` operands are left out for that
(additive_expression (simple_identifier) @name) @reference.reference
(comparison_expression (simple_identifier) @name) @reference.reference
(equality_expression (simple_identifier) @name) @reference.reference
(nil_coalescing_expression (simple_identifier) @name) @reference.reference
(prefix_expression ["-" "+" "~"] target: (simple_identifier) @name) @reference.reference
(prefix_expression operation: (bang) target: (simple_identifier) @name) @reference.reference
; an implicit member (`.accept("x")`, `.retry`, `.defaultUserAgent`): a static member or
; an enum case of the type the context expects, its qualifier the dot (link/swift.py); a
; use, not a call (a second pattern for the calls would cost the compile 13 ms)
(prefix_expression operation: "." @qualifier target: (simple_identifier) @name) @reference.reference
(property_declaration (simple_identifier) @name) @reference.reference
(assignment (simple_identifier) @name) @reference.reference
(control_transfer_statement (simple_identifier) @name) @reference.reference
(interpolated_expression (simple_identifier) @name) @reference.reference
(switch_statement (simple_identifier) @name) @reference.reference
(for_statement (simple_identifier) @name) @reference.reference

; ---- names a function binds itself (`@local`): its bare uses there are not the
; module's definitions of the same name (parameters, constants and variables, loop and
; closure names)
(parameter (simple_identifier) @name @local)
(statements (property_declaration (pattern (simple_identifier) @name @local)))
(for_statement (pattern (simple_identifier) @name @local))
(lambda_parameter (simple_identifier) @name @local)
