; Makefile definitions and references (tree-sitter-language-pack 0.13.0 "make").
; Targets are functions (`make build` runs one), variables and `define` blocks macros'
; kin; pattern rules (`%.o`) are targets too, special targets (`.PHONY`) define nothing.

; ---- definitions -------------------------------------------------------------

(rule
  (targets (_) @name)
  (#not-match? @name "^[.][A-Z_]+$")) @definition.function
(variable_assignment name: (word) @name) @definition.variable
(define_directive name: (word) @name) @definition.macro

; ---- references --------------------------------------------------------------

(include_directive filenames: (list (word) @name)) @reference.import
(rule normal: (prerequisites (word) @name (#not-match? @name "%"))) @reference.call
(variable_reference (word) @name) @reference.reference
