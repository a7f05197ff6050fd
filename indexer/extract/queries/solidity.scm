; Solidity definitions and references (grammar bundled with tree-sitter-language-pack 0.13.0).
; Contracts are classes (their bases are what they extend), libraries modules; events,
; errors and modifiers are named as they are declared: event, class and function.

; ---- definitions -------------------------------------------------------------

(contract_declaration
  name: (identifier) @name
  (inheritance_specifier ancestor: (user_defined_type) @extends)*) @definition.class
(interface_declaration
  name: (identifier) @name
  (inheritance_specifier ancestor: (user_defined_type) @extends)*) @definition.interface
(library_declaration name: (identifier) @name) @definition.module

(function_definition name: (identifier) @name) @definition.function
(constructor_definition "constructor" @name) @definition.constructor
(modifier_definition name: (identifier) @name) @definition.function
(fallback_receive_definition ["fallback" "receive"] @name) @definition.function

(state_variable_declaration name: (identifier) @name) @definition.field
(state_variable_declaration "constant" name: (identifier) @name) @definition.constant
(source_file (constant_variable_declaration name: (identifier) @name) @definition.constant)
(struct_declaration name: (identifier) @name) @definition.struct
(struct_member name: (identifier) @name) @definition.field
(enum_declaration name: (identifier) @name) @definition.enum
(enum_value) @name @definition.enum_member
(event_definition name: (identifier) @name) @definition.event
(error_declaration name: (identifier) @name) @definition.class
(user_defined_type_definition name: (identifier) @name) @definition.type

; ---- references --------------------------------------------------------------

(import_directive source: (string) @name) @reference.import

(call_expression function: (expression (identifier) @name)) @reference.call
(call_expression
  function: (expression (member_expression object: (identifier) @qualifier property: (identifier) @name))) @reference.call
(modifier_invocation . (identifier) @name) @reference.call
(emit_statement name: (expression (identifier) @name)) @reference.call
(revert_statement error: (expression (identifier) @name)) @reference.call

(type_name (user_defined_type (identifier) @name)) @reference.type
(call_argument (expression (identifier) @name)) @reference.reference
