; Lua definitions and references (grammar bundled with tree-sitter-language-pack 0.13.0).
; `function T.f()` and `function T:m()` are declared on a table outside any body: the table
; is captured as @receiver so the qualified name reads `T.f`; `:` functions are methods.

; ---- definitions -------------------------------------------------------------

(function_declaration name: (identifier) @name) @definition.function
(function_declaration
  name: (dot_index_expression table: (_) @receiver field: (identifier) @name)) @definition.function
(function_declaration
  name: (method_index_expression table: (_) @receiver method: (identifier) @name)) @definition.method

(assignment_statement
  (variable_list name: (identifier) @name)
  (expression_list value: (function_definition))) @definition.function
(assignment_statement
  (variable_list
    name: (dot_index_expression table: (_) @receiver field: (identifier) @name))
  (expression_list value: (function_definition))) @definition.function
(field name: (identifier) @name value: (function_definition)) @definition.function

; module-level tables and values
(chunk
  (variable_declaration
    (assignment_statement
      (variable_list name: (identifier) @name)
      (expression_list value: [(table_constructor) (string) (number) (true) (false)]))) @definition.variable)
(chunk
  (assignment_statement
    (variable_list name: (identifier) @name)
    (expression_list value: [(table_constructor) (string) (number) (true) (false)])) @definition.variable)
(chunk
  (assignment_statement
    (variable_list name: (dot_index_expression table: (identifier) @receiver field: (identifier) @name))
    (expression_list value: [(table_constructor) (string) (number) (true) (false)])) @definition.field)

; ---- references --------------------------------------------------------------

(function_call
  name: (identifier) @_require
  arguments: (arguments . (string content: (string_content) @name))
  (#eq? @_require "require")) @reference.import

(function_call name: (identifier) @name) @reference.call
(function_call name: (dot_index_expression table: (_) @qualifier field: (identifier) @name)) @reference.call
(function_call name: (method_index_expression table: (_) @qualifier method: (identifier) @name)) @reference.call

(arguments (identifier) @name) @reference.reference
(expression_list value: (identifier) @name) @reference.reference
(dot_index_expression table: (identifier) @name) @reference.reference
(method_index_expression table: (identifier) @name) @reference.reference
; names as values: operands (`n + LIMIT`, `not FLAG`, `s .. PREFIX`), indexes and what
; they index (`TABLE[KEY]`), table fields (`{ A, b = B }`), conditions, loop bounds
(binary_expression (identifier) @name) @reference.reference
(unary_expression operand: (identifier) @name) @reference.reference
(bracket_index_expression table: (identifier) @name) @reference.reference
(bracket_index_expression field: (identifier) @name) @reference.reference
(field value: (identifier) @name) @reference.reference
(if_statement condition: (identifier) @name) @reference.reference
(elseif_statement condition: (identifier) @name) @reference.reference
(while_statement condition: (identifier) @name) @reference.reference
(for_numeric_clause [start: (identifier) @name end: (identifier) @name step: (identifier) @name]) @reference.reference

; ---- names a function binds itself (`@local`): its bare uses there are not the file's
; definitions of the same name (parameters, locals, loop variables)
(parameters name: (identifier) @name @local)
(variable_declaration (assignment_statement (variable_list name: (identifier) @name @local)))
(variable_declaration (variable_list name: (identifier) @name @local))
(for_numeric_clause name: (identifier) @name @local)
(for_generic_clause (variable_list name: (identifier) @name @local))
