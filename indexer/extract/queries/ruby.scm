; Ruby definitions and references (grammar bundled with tree-sitter-language-pack 0.13.0).
; `include`/`prepend` of a module are recorded as implements (mixins); `def` at the top
; level is a function, inside a class, module or block a method.

; ---- definitions -------------------------------------------------------------

(class
  name: [(constant) (scope_resolution)] @name
  superclass: (superclass (_) @extends)?) @definition.class
(class
  name: [(constant) (scope_resolution)] @name
  body: (body_statement
    (call
      method: (identifier) @_mixin
      arguments: (argument_list [(constant) (scope_resolution)] @implements))
    (#any-of? @_mixin "include" "prepend"))) @definition.class

(module name: [(constant) (scope_resolution)] @name) @definition.module
(module
  name: [(constant) (scope_resolution)] @name
  body: (body_statement
    (call
      method: (identifier) @_mixin
      arguments: (argument_list [(constant) (scope_resolution)] @implements))
    (#any-of? @_mixin "include" "prepend"))) @definition.module

(program (method name: (_) @name) @definition.function)
(body_statement (method name: (_) @name) @definition.method)
(block_body (method name: (_) @name) @definition.method)
(singleton_method name: (_) @name) @definition.method

(call
  method: (identifier) @_attr
  arguments: (argument_list (simple_symbol) @name)
  (#any-of? @_attr "attr_accessor" "attr_reader" "attr_writer")) @definition.property

(alias name: (_) @name) @definition.method
(call
  method: (identifier) @_alias
  arguments: (argument_list . (simple_symbol) @name)
  (#eq? @_alias "alias_method")) @definition.method

(program (assignment left: (constant) @name) @definition.constant)
(body_statement (assignment left: (constant) @name) @definition.constant)

; ---- references --------------------------------------------------------------

(call
  method: (identifier) @_require
  arguments: (argument_list . (string (string_content) @name))
  (#any-of? @_require "require" "require_relative" "load" "autoload")) @reference.import

(call !receiver method: (identifier) @name) @reference.call
(call
  receiver: [(identifier) (constant) (scope_resolution) (self) (instance_variable) (class_variable)] @qualifier
  method: (identifier) @name) @reference.call
(call receiver: [(call) (element_reference) (parenthesized_statements)] method: (identifier) @name) @reference.call
; a literal's method (`%w[a b].include? k`, `[1, 2].each`): a builtin's, which links nothing
(call
  receiver: [(array) (string_array) (symbol_array) (hash) (string) (simple_symbol) (integer) (float) (regex)] @qualifier
  method: (identifier) @name) @reference.call
(call
  receiver: [(constant) @name (scope_resolution name: (constant) @name)]
  method: (identifier) @_new
  (#eq? @_new "new")) @reference.call

(scope_resolution scope: (constant) @name) @reference.reference
; a constant before a dot (`REGISTRY.fetch(k)`, `Parser.parse(s)`): its use
(call receiver: (constant) @name) @reference.reference
(argument_list (constant) @name) @reference.reference
(argument_list (scope_resolution name: (constant) @name)) @reference.reference
(assignment right: (constant) @name) @reference.reference
(optional_parameter value: (constant) @name) @reference.reference
(body_statement (constant) @name) @reference.reference
; constants as values: operands (`n + LIMIT`, `!FLAG`), indexes and what they index
; (`TABLE[KEY]`), elements and hash values, interpolations (`"#{PREFIX}"`), `case` /
; `when` / `then`, conditions, and a constant inside a namespace (`Foo::BAR`)
(binary (constant) @name) @reference.reference
(unary (constant) @name) @reference.reference
(element_reference (constant) @name) @reference.reference
(array (constant) @name) @reference.reference
(pair value: (constant) @name) @reference.reference
(interpolation (constant) @name) @reference.reference
(case value: (constant) @name) @reference.reference
(pattern (constant) @name) @reference.reference
(then (constant) @name) @reference.reference
(conditional (constant) @name) @reference.reference
(parenthesized_statements (constant) @name) @reference.reference
(scope_resolution scope: (constant) @qualifier name: (constant) @name) @reference.reference

; ---- bare names: Ruby writes a method call without arguments as a bare name
; (`helper`, `authorization_key.nil?`, `case consume_boundary`), which the grammar reads as
; it reads a local variable. Such a name is a call (`@free`) only inside a method that does
; not bind it (`@local`: its parameters, its blocks' and its assignments).
((identifier) @name @free) @reference.call

[
  (method_parameters (identifier) @name)
  (block_parameters (identifier) @name)
  (lambda_parameters (identifier) @name)
  (destructured_parameter (identifier) @name)
  (optional_parameter name: (identifier) @name)
  (keyword_parameter name: (identifier) @name)
  (splat_parameter name: (identifier) @name)
  (hash_splat_parameter name: (identifier) @name)
  (block_parameter name: (identifier) @name)
  (assignment left: (identifier) @name)
  (operator_assignment left: (identifier) @name)
  (left_assignment_list (identifier) @name)
  (rest_assignment (identifier) @name)
  (destructured_left_assignment (identifier) @name)
  (for pattern: (identifier) @name)
  (exception_variable (identifier) @name)] @local
