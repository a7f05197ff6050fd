; Dockerfile definitions and references (grammar bundled with tree-sitter-language-pack 0.13.0).
; A named build stage (`FROM image AS name`) is a module; ARG and ENV names are variables.
; A stage's instructions follow its FROM as siblings: they are not nested under it.

; ---- definitions -------------------------------------------------------------

(from_instruction as: (image_alias) @name) @definition.module
(arg_instruction name: (unquoted_string) @name) @definition.variable
(env_instruction (env_pair name: (unquoted_string) @name) @definition.variable)

; ---- references --------------------------------------------------------------

(from_instruction (image_spec name: (image_name) @name)) @reference.import
(expansion (variable) @name) @reference.reference
