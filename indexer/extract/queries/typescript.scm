; inherits: js_common
; TypeScript definitions and references (grammar bundled with tree-sitter-language-pack 0.13.0).
; tsx.scm inherits this file and adds JSX patterns.
; Method decorators precede the method inside the class body; class decorators of an
; exported class sit on the export_statement.

; ---- definitions -------------------------------------------------------------

(class_declaration
  (decorator)* @decorator
  name: (type_identifier) @name
  (class_heritage
    (extends_clause value: (_) @extends)?
    (implements_clause (_)* @implements)?)?) @definition.class

(abstract_class_declaration
  (decorator)* @decorator
  name: (type_identifier) @name
  (class_heritage
    (extends_clause value: (_) @extends)?
    (implements_clause (_)* @implements)?)?) @definition.class

(export_statement
  (decorator)+ @decorator
  declaration: [
    (class_declaration name: (type_identifier) @name)
    (abstract_class_declaration name: (type_identifier) @name)
  ] @definition.class)

(class
  name: (type_identifier) @name
  (class_heritage (extends_clause value: (_) @extends)?)?) @definition.class

(variable_declarator
  name: (identifier) @name
  value: (class)) @definition.class

(interface_declaration
  name: (type_identifier) @name
  (extends_type_clause (_)* @extends)?) @definition.interface

(enum_declaration name: (identifier) @name) @definition.enum
(enum_body name: (property_identifier) @name @definition.enum_member)
(enum_assignment
  name: [(property_identifier) @name (string (string_fragment) @name)]) @definition.enum_member

(type_alias_declaration name: (type_identifier) @name) @definition.type

(internal_module name: [(identifier) (nested_identifier)] @name) @definition.namespace
(module name: [(identifier) @name (nested_identifier) @name (string (string_fragment) @name)]) @definition.module

(method_definition
  name: [(property_identifier) (private_property_identifier) (computed_property_name)] @name) @definition.method
; `"quoted"() {}`: named by the string's text, without its quotes
(method_definition name: (string (string_fragment) @name)) @definition.method
(class_body
  (decorator)+ @decorator
  .
  (method_definition name: (_) @name) @definition.method)
(method_signature name: (_) @name) @definition.method
(abstract_method_signature name: (_) @name) @definition.method
(construct_signature "new" @name) @definition.method

(public_field_definition
  (decorator)* @decorator
  name: [(property_identifier) (private_property_identifier) (string)] @name) @definition.field
(public_field_definition
  name: [(property_identifier) (private_property_identifier)] @name
  value: [(arrow_function) (function_expression)]) @definition.method
(property_signature name: (_) @name) @definition.property

; constructor parameter properties: `constructor(private readonly http: Http)`
(required_parameter (accessibility_modifier) pattern: (identifier) @name) @definition.property
(optional_parameter (accessibility_modifier) pattern: (identifier) @name) @definition.property
(required_parameter "readonly" pattern: (identifier) @name) @definition.property

(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(function_signature name: (identifier) @name) @definition.function

; `Order.create = () => {}`, `Order.prototype.describe = ...`: the receiver qualifies them
(assignment_expression
  left: (member_expression object: (identifier) @receiver property: (property_identifier) @name)
  right: [(arrow_function) (function_expression) (generator_function)]) @definition.function
(assignment_expression
  left: (member_expression
    object: (member_expression object: (identifier) @receiver property: (property_identifier) @_proto)
    property: (property_identifier) @name)
  (#eq? @_proto "prototype")) @definition.method

; ---- references --------------------------------------------------------------

; `import fs = require('./fs')`: a namespace import of the module
(import_statement
  (import_require_clause (identifier) @alias source: (string (string_fragment) @name))) @reference.import

(type_annotation (type_identifier) @name) @reference.type
(type_annotation (generic_type name: (type_identifier) @name)) @reference.type
(type_annotation (nested_type_identifier module: (_) @qualifier name: (type_identifier) @name)) @reference.type
(type_annotation (array_type (type_identifier) @name)) @reference.type
(type_arguments (type_identifier) @name) @reference.type
(union_type (type_identifier) @name) @reference.type
(as_expression (type_identifier) @name) @reference.type
(constraint (type_identifier) @name) @reference.type

; the type a variable, parameter or field is declared with (`@alias` names it): what a
; method called on it belongs to (`client.get()` with `client: Client`)
(required_parameter pattern: (identifier) @alias type: (type_annotation [
    (type_identifier) @name
    (generic_type name: (type_identifier) @name)
    (nested_type_identifier module: (_) @qualifier name: (type_identifier) @name)
    (union_type . (type_identifier) @name)])) @reference.type
(optional_parameter pattern: (identifier) @alias type: (type_annotation [
    (type_identifier) @name
    (generic_type name: (type_identifier) @name)
    (nested_type_identifier module: (_) @qualifier name: (type_identifier) @name)
    (union_type . (type_identifier) @name)])) @reference.type
(variable_declarator name: (identifier) @alias type: (type_annotation [
    (type_identifier) @name
    (generic_type name: (type_identifier) @name)
    (nested_type_identifier module: (_) @qualifier name: (type_identifier) @name)
    (union_type . (type_identifier) @name)])) @reference.type
(public_field_definition name: (property_identifier) @alias type: (type_annotation [
    (type_identifier) @name
    (generic_type name: (type_identifier) @name)
    (nested_type_identifier module: (_) @qualifier name: (type_identifier) @name)
    (union_type . (type_identifier) @name)])) @reference.type

(arguments (identifier) @name) @reference.reference
; default values (`pick(other = IdentityDecoder)`, also in destructuring)
(required_parameter value: (identifier) @name) @reference.reference
(optional_parameter value: (identifier) @name) @reference.reference
(assignment_pattern right: (identifier) @name) @reference.reference
; types wherever they are written: `typeof GZipDecoder`, `A & B`, `[A, B]`, `A[]`,
; `Map<string, A>` inside another type, `type X = A`, `x satisfies A`
(type_query (identifier) @name) @reference.type
(intersection_type (type_identifier) @name) @reference.type
(tuple_type (type_identifier) @name) @reference.type
(array_type (type_identifier) @name) @reference.type
(generic_type name: (type_identifier) @name) @reference.type
(type_alias_declaration value: (type_identifier) @name) @reference.type
(satisfies_expression (type_identifier) @name) @reference.type
(return_statement (identifier) @name) @reference.reference
(assignment_expression right: (identifier) @name) @reference.reference
(member_expression object: (identifier) @name) @reference.reference
; a class field's initial value (`#notFoundHandler: NotFoundHandler = notFoundHandler`)
(public_field_definition value: (identifier) @name) @reference.reference
; types inside other type expressions: `A extends B ? C : D`, `{ [K in Keys]: V }`,
; `keyof Options`, `Options['a']`, `(a: A) => Result`, `x is Guard`, `(Paren)`
(conditional_type [left: (type_identifier) @name right: (type_identifier) @name consequence: (type_identifier) @name alternative: (type_identifier) @name]) @reference.type
(mapped_type_clause type: (type_identifier) @name) @reference.type
(index_type_query (type_identifier) @name) @reference.type
(lookup_type . (type_identifier) @name) @reference.type
(function_type return_type: (type_identifier) @name) @reference.type
(type_predicate type: (type_identifier) @name) @reference.type
(parenthesized_type (type_identifier) @name) @reference.type
