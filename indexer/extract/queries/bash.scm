; Bash definitions and references (grammar bundled with tree-sitter-language-pack 0.13.0).
; Functions and script-level variables; `readonly` (or `declare -r`) names are constants.

; ---- definitions -------------------------------------------------------------

(function_definition name: (word) @name) @definition.function

(program (variable_assignment name: (variable_name) @name) @definition.variable)
(program (declaration_command (variable_assignment name: (variable_name) @name)) @definition.variable)
(program (declaration_command (variable_name) @name) @definition.variable)
(program
  (declaration_command "readonly" (variable_assignment name: (variable_name) @name)) @definition.constant)
(program
  (declaration_command
    (word) @_flag
    (variable_assignment name: (variable_name) @name)
    (#match? @_flag "^-[a-zA-Z]*r")) @definition.constant)

; ---- references --------------------------------------------------------------

(command
  name: (command_name (word) @_source)
  argument: [(word) (string) (raw_string)] @name
  (#any-of? @_source "source" ".")) @reference.import

(command name: (command_name (word) @name)) @reference.call

(simple_expansion (variable_name) @name (#not-match? @name "^[0-9]+$")) @reference.reference
(expansion (variable_name) @name) @reference.reference
(expansion (subscript name: (variable_name) @name)) @reference.reference
