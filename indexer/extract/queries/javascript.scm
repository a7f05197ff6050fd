; inherits: js_common
; JavaScript definitions and references (grammar bundled with tree-sitter-language-pack 0.13.0).
; Decorators of an exported class sit on the export_statement; the engine reads the
; comment before an export_statement as the doc of what it exports.

; ---- definitions -------------------------------------------------------------

(class_declaration
  (decorator)* @decorator
  name: (identifier) @name
  (class_heritage (_) @extends)?) @definition.class

(export_statement
  (decorator)+ @decorator
  declaration: (class_declaration name: (identifier) @name) @definition.class)

(variable_declarator
  name: (identifier) @name
  value: (class (class_heritage (_) @extends)?)) @definition.class

; a named class expression: `module.exports = class Foo extends Bar {}`
(class
  (decorator)* @decorator
  name: (identifier) @name
  (class_heritage (_) @extends)?) @definition.class

(method_definition
  (decorator)* @decorator
  name: [(property_identifier) (private_property_identifier) (computed_property_name)] @name) @definition.method
; `"BlockStatement:exit"(node) {}`: named by the string's text, without its quotes
(method_definition
  (decorator)* @decorator
  name: (string (string_fragment) @name)) @definition.method

(field_definition
  (decorator)* @decorator
  property: [(property_identifier) (private_property_identifier)] @name) @definition.field
(field_definition
  property: [(property_identifier) (private_property_identifier)] @name
  value: [(arrow_function) (function_expression)]) @definition.method

(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function

; `Order.create = () => {}` and `Order.prototype.describe = ...`: the
; object is the receiver, so the engine names them `Order.create`, `Order.describe`
(assignment_expression
  left: (member_expression object: (identifier) @receiver property: (property_identifier) @name)
  right: [(arrow_function) (function_expression) (generator_function)]) @definition.function
(assignment_expression
  left: (member_expression object: (identifier) @receiver property: (property_identifier) @name)
  right: (class)) @definition.class
(assignment_expression
  left: (member_expression
    object: (member_expression object: (identifier) @receiver property: (property_identifier) @_proto)
    property: (property_identifier) @name)
  (#eq? @_proto "prototype")) @definition.method
; `RemoteModule.KINDS = new Set()`, `exports.parse = parse`, `module.exports = {...}` at the top level
(program
  (expression_statement
    (assignment_expression
      left: (member_expression object: (identifier) @receiver property: (property_identifier) @name))
    @definition.property))
; `getTag = function (value) {...}` (a global or a reassigned variable)
(assignment_expression
  left: (identifier) @name
  right: [(arrow_function) (function_expression) (generator_function)]) @definition.function

; ---- references --------------------------------------------------------------

(arguments (identifier) @name) @reference.reference
; a default value: `function make(decoder = GZipDecoder)`
(assignment_pattern right: (identifier) @name) @reference.reference
(return_statement (identifier) @name) @reference.reference
(assignment_expression right: (identifier) @name) @reference.reference
(member_expression object: (identifier) @name) @reference.reference

; ---- JSX: a capitalised element is a use of a component ------------------------

(jsx_opening_element name: (identifier) @name (#match? @name "^[A-Z]")) @reference.call
(jsx_self_closing_element name: (identifier) @name (#match? @name "^[A-Z]")) @reference.call
(jsx_opening_element
  name: (member_expression object: (_) @qualifier property: (property_identifier) @name)) @reference.call
(jsx_self_closing_element
  name: (member_expression object: (_) @qualifier property: (property_identifier) @name)) @reference.call
; a value in braces (`onClick={handleCopy}`, `{items}`)
(jsx_expression (identifier) @name) @reference.reference
; a class field's initial value (`handler = notFound`)
(field_definition value: (identifier) @name) @reference.reference
